#!/usr/bin/env python3
"""Writes the pages a profile-guided build trains on (scripts/build-pgo.sh).

The pages are made up here, from a fixed seed, so that the build needs no
data from outside the repository: web-page shapes (head with scripts, styles
and meta tags; header, navigation, an article with inline markup, entities,
comments and figures; sidebars, comment threads, tables, forms, footers),
class and id names of the kinds real sites use, and prose in a few
languages and scripts, UTF-8 and legacy-encoded. Profile-guided
optimisation only needs the branches taken in the same proportions as on
real pages, not real text.

It also writes the same pages as a WARC (one gzip member per response
record, as crawlers write them), so that the WARC path is trained too.

usage: pgo_pages.py OUT_DIR [COUNT]
"""
import gzip
import os
import random
import sys
import uuid

WORDS = {
    "en": "the of and to in is was for that on with as by at from his her they this have "
    "government report city council people year percent market company said would "
    "police school health water energy project research study children family "
    "president minister election court law week officials according".split(),
    "de": "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine "
    "als auch es an werden aus er hat dass sie nach wird bei einer um Regierung "
    "Stadt Bürger Straße größer Menschen Jahr Prozent Unternehmen über".split(),
    "fr": "le de la et les des en un une du est dans que pour qui au sur pas plus par "
    "ne avec ce il se sont été gouvernement ville président année être très "
    "français élection marché société écoles déjà après".split(),
    "ru": "и в не на что с по как это из он его но все она так о к от для за "
    "правительство город люди год процент рынок компания сказал".split(),
    "zh": list("的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞圆搞狂措姓残秋培迷诚宽宇猛摆梅毁伸摩盟末乃悲拍丁赵滑"),
}
CLASSES_BOILER = "nav navbar menu main-menu footer site-footer sidebar widget comments comment-list share social related-posts advert ad-slot breadcrumb cookie-banner newsletter subscribe tags pagination".split()
CLASSES_CONTENT = "content main-content article article-body post post-content entry-content story-body text body-copy".split()
CLASSES_OTHER = "container row col-md-8 col-md-4 wrapper inner clearfix grid flex items-center px-4 mt-2 card card-body media lead".split()

rng = random.Random(8803)


def prose(lang, n):
    words = WORDS[lang]
    if lang == "zh":
        return "".join(rng.choice(words) for _ in range(n)) + "。"
    out = [rng.choice(words) for _ in range(n)]
    out[0] = out[0].capitalize()
    return " ".join(out) + rng.choice([".", ".", ".", "?", "!"])


def cls(pool, k=2):
    return " ".join(rng.sample(pool, k) + rng.sample(CLASSES_OTHER, rng.randint(0, 3)))


def inline(lang):
    parts = []
    for _ in range(rng.randint(2, 8)):
        s = prose(lang, rng.randint(4, 25))
        kind = rng.random()
        if kind < 0.2:
            s = f'<a href="https://example.org/{rng.randint(1, 99999)}/{lang}" title="x">{s}</a>'
        elif kind < 0.3:
            s = f"<em>{s}</em>"
        elif kind < 0.38:
            s = f'<span class="{cls(CLASSES_OTHER, 1)}">{s}</span>'
        elif kind < 0.43:
            s = s.replace(" ", " &amp; ", 1) + " &nbsp;&#8212; &quot;q&quot;"
        elif kind < 0.47:
            s = f"<strong>{s}</strong><br>"
        parts.append(s)
    return " ".join(parts)


def script():
    body = "var a = 1; if (a < 2 && b > 3) { document.write('<div class=\"x\">' + a + '</div>'); }\n" * rng.randint(1, 30)
    return f'<script type="text/javascript">{body}</script>\n'


def style():
    return "<style>.a{color:red}\n" * 1 + ".b > .c { margin: 0 }\n" * rng.randint(1, 40) + "</style>\n"


def nav(lang):
    items = "".join(f'<li class="menu-item"><a href="/s/{i}">{prose(lang, rng.randint(1, 3))}</a></li>\n' for i in range(rng.randint(5, 40)))
    return f'<nav class="{cls(CLASSES_BOILER, 1)}" id="{rng.choice(CLASSES_BOILER)}"><ul>\n{items}</ul></nav>\n'


def article(lang, title):
    out = [f'<article class="{cls(CLASSES_CONTENT, 1)}" itemprop="articleBody">', f"<h1 class=\"headline\">{title}</h1>"]
    out.append(f'<p class="byline">By <a href="/a">{prose(lang, 2)}</a> <time datetime="2024-01-01">1 Jan</time></p>')
    for _ in range(rng.randint(3, 40)):
        r = rng.random()
        if r < 0.7:
            out.append(f"<p>{inline(lang)}</p>")
        elif r < 0.78:
            level = rng.randint(2, 4)
            out.append(f"<h{level}>{prose(lang, rng.randint(3, 9))}</h{level}>")
        elif r < 0.84:
            out.append(f'<figure><img src="/i/{rng.randint(1, 999)}.jpg" alt="{prose(lang, 4)}" width="640" height="480"><figcaption>{prose(lang, 8)}</figcaption></figure>')
        elif r < 0.9:
            rows = "".join(f"<tr><td>{prose(lang, 2)}</td><td>{rng.randint(1, 9999)}</td></tr>" for _ in range(rng.randint(2, 12)))
            out.append(f"<table><tbody>{rows}</tbody></table>")
        elif r < 0.95:
            out.append("<ul>" + "".join(f"<li>{prose(lang, rng.randint(3, 15))}</li>" for _ in range(rng.randint(2, 8))) + "</ul>")
        else:
            out.append(f"<!-- {prose('en', 6)} --><blockquote>{inline(lang)}</blockquote>")
    out.append("</article>")
    return "\n".join(out)


def sidebar(lang):
    blocks = "".join(f'<div class="widget"><h3>{prose(lang, 2)}</h3><ul>' + "".join(f'<li><a href="/r/{i}">{prose(lang, rng.randint(4, 10))}</a></li>' for i in range(rng.randint(3, 10))) + "</ul></div>" for _ in range(rng.randint(1, 5)))
    return f'<aside class="{cls(CLASSES_BOILER, 1)}">{blocks}</aside>\n'


def comments(lang):
    c = "".join(f'<div class="comment" id="c{i}"><span class="author">{prose(lang, 2)}</span><p>{prose(lang, rng.randint(5, 60))}</p></div>' for i in range(rng.randint(0, 20)))
    return f'<section class="comments" id="comments">{c}</section>\n'


def form():
    return '<form action="/search" method="get"><input type="text" name="q" placeholder="Search"><button type="submit">Go</button><select name="s"><option>a</option><option>b</option></select></form>\n'


def footer(lang):
    return f'<footer class="site-footer"><p>&copy; 2024 {prose(lang, 3)}</p><p>{inline(lang)}</p></footer>\n'


def modern_block(lang):
    """Div soup of a current site: long utility class lists, data- and
    aria- attributes, inline SVG icons, JSON-LD."""
    svg = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2L2 7l10 5 10-5-10-5z"/></svg>'
    cards = "".join(
        f'<div class="{cls(CLASSES_OTHER, 4)}" data-id="{rng.randint(1, 10**9)}" data-track="card" aria-label="{prose(lang, 3)}" style="margin:0 auto;max-width:40rem">'
        f'<a class="block hover:underline" href="/c/{rng.randint(1, 999)}">{svg}<span>{prose(lang, rng.randint(3, 12))}</span></a></div>'
        for _ in range(rng.randint(4, 30))
    )
    ld = '{"@context":"https://schema.org","@type":"NewsArticle","headline":"' + prose(lang, 6) + '"}'
    return f'<script type="application/ld+json">{ld}</script><div class="grid gap-4 md:grid-cols-3">{cards}</div>\n'


def old_page(lang, title):
    """A page of the table-layout years: upper-case tags, unquoted
    attributes, font tags, no landmarks."""
    cells = "".join(f'<TR><TD WIDTH=20% BGCOLOR=#EEEEEE><FONT FACE=Arial SIZE=2><A HREF="/x{i}.html">{prose(lang, 2)}</A></FONT></TD></TR>' for i in range(rng.randint(5, 25)))
    body = "".join(f"<P><FONT SIZE=2>{inline(lang)}</FONT>" for _ in range(rng.randint(3, 25)))
    return (
        f"<HTML><HEAD><TITLE>{title}</TITLE>\n<META HTTP-EQUIV=Content-Type CONTENT='text/html; charset=utf-8'></HEAD>\n"
        f"<BODY BGCOLOR=white><TABLE BORDER=0 CELLPADDING=2><TR><TD VALIGN=top><TABLE>{cells}</TABLE></TD>\n"
        f"<TD VALIGN=top><B><FONT SIZE=+2>{title}</FONT></B><BR>{body}</TD></TR></TABLE>\n"
        f"<CENTER><FONT SIZE=1>Copyright &copy; 2001 {prose(lang, 2)}</FONT></CENTER></BODY></HTML>"
    )


def page(i):
    lang = rng.choice(["en", "en", "en", "de", "fr", "ru", "zh"])
    if rng.random() < 0.2:
        title = prose(lang, rng.randint(4, 12)).rstrip(".?!")
        return old_page(lang, title).encode("utf-8")
    title = prose(lang, rng.randint(4, 12)).rstrip(".?!")
    head = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}" class="no-js">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta property="og:title" content="{title}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title} | {prose('en', 2).rstrip('.?!')}</title>",
    ]
    head += [style() for _ in range(rng.randint(0, 3))] + [script() for _ in range(rng.randint(0, 6))]
    head.append("</head>")
    body = [f'<body class="{cls(CLASSES_OTHER, 2)}">', f'<header class="site-header">{nav(lang)}</header>']
    if rng.random() < 0.3:
        body.append(f'<div class="breadcrumb"><a href="/">Home</a> &gt; <a href="/x">{prose(lang, 2)}</a></div>')
    main = [article(lang, title)]
    if rng.random() < 0.5:
        main.append(modern_block(lang))
    if rng.random() < 0.2:
        main.append(f'<noscript><iframe src="https://example.org/ns?id={rng.randint(1, 999)}" height="0" width="0"></iframe></noscript>')
    if rng.random() < 0.7:
        main.append(sidebar(lang))
    if rng.random() < 0.5:
        main.append(comments(lang))
    body.append(f'<main id="main"><div class="{cls(CLASSES_OTHER, 2)}">' + "".join(main) + "</div></main>")
    if rng.random() < 0.3:
        body.append(form())
    body.append(footer(lang))
    body += [script() for _ in range(rng.randint(0, 8))]
    body.append("</body></html>")
    html = "\n".join(head + body)
    if rng.random() < 0.3:
        # Minified: one physical line.
        html = html.replace("\n", "")
    if lang == "ru" and rng.random() < 0.5:
        return html.replace('charset="utf-8"', 'charset="windows-1251"').encode("cp1251", "replace")
    if lang in ("de", "fr") and rng.random() < 0.3:
        return html.replace('charset="utf-8"', 'charset="iso-8859-1"').encode("latin-1", "replace")
    return html.encode("utf-8")


def warc_record(i, html):
    """A WARC/1.1 response record holding `html` behind an HTTP head."""
    charset = b"utf-8" if b'charset="utf-8"' in html[:2000] else None
    ctype = b"text/html" + (b"; charset=" + charset if charset else b"")
    http = b"HTTP/1.1 200 OK\r\nContent-Type: " + ctype + b"\r\nContent-Length: " + str(len(html)).encode() + b"\r\n\r\n" + html
    record_id = uuid.UUID(int=rng.getrandbits(128))
    head = (
        "WARC/1.1\r\n"
        "WARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{record_id}>\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: https://example.org/page{i}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "pages.txt"), "w") as listing, open(os.path.join(out, "pages.warc.gz"), "wb") as warc:
        for i in range(count):
            html = page(i)
            path = os.path.join(out, f"page{i:04d}.html")
            with open(path, "wb") as f:
                f.write(html)
            listing.write(path + "\n")
            warc.write(gzip.compress(warc_record(i, html)))


if __name__ == "__main__":
    main()
