//! The hand-made pages in `tests/fixtures/pages`, of the kinds users feed
//! the extractor (a news story, a blog post with comments, a forum thread,
//! a documentation page, a product page, a recipe), each checked against
//! its `.expect` file: the headline, lines the text must hold and lines it
//! must not. The expectations hold what the extractor gets right today;
//! `tests/fixtures/README.md` says what each page is.

mod fixtures_support;

fixtures_support::fixture_tests! {
    "pages";
    a_news_article_keeps_its_story_without_share_buttons_or_related_links: "news-article",
    a_blog_post_keeps_its_body_without_the_comments_or_sidebar: "blog-with-comments",
    a_forum_thread_keeps_its_posts_without_the_forum_chrome: "forum-thread",
    a_documentation_page_keeps_its_prose_and_code_without_the_sidebar: "docs-page",
    a_product_page_keeps_its_description_without_the_shop_around_it: "product-page",
    a_recipe_keeps_every_step_without_the_links_around_it: "recipe",
}
