#!/usr/bin/env bash
# Fault injection against `linesift worker` with a real RabbitMQ (issue #8,
# part 3). Starts a PRIVATE RabbitMQ node (own node name, ports, data dir
# and Erlang cookie under a temp dir; the shared node on 5672 is never
# touched), a local origin web server (scripts/fault_origin.py), enqueues a
# seeded workload (URL tasks, WARC tasks, malformed messages), runs several
# workers, injects faults on a seeded schedule while tasks flow, drains, and
# accounts for every task (examples/fault_harness.rs). Exits 1 on any loss,
# on a dead letter without its reason, or on a task that ended other than
# planned; 2 on a usage or set-up error; 124 on the overall timeout.
#
# Faults: broker_restart (stop_app/start_app), broker_crash (SIGKILL of the
# node's VM, restart on the same data), worker_kill (SIGKILL, new worker),
# origin_stall (every origin request hangs 4-8 s, past the fetch timeout),
# disk_alarm ("output disk fills": the node's free-disk limit is raised
# above the free space, so RabbitMQ blocks every publisher, then lowered
# again), connection_drop (rabbitmqctl close_all_connections). Besides,
# the broker restarts once while `linesift enqueue` publishes (resumed with
# --skip), and at the end every worker's logged counters must add up.
#
# usage: scripts/fault-injection.sh [--seed N] [--tasks N] [--faults N]
#          [--poison N] [--workers N] [--concurrency N] [--window SECS]
#          [--page-delay MS|auto] [--timeout SECS] [--smoke] [--no-build] [--keep] [--summary FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

seed=8803
tasks=10000
faults=24
poison=70
workers=3
window=150
page_delay=auto
concurrency=8
timeout_secs=1200
delivery_limit=8
build=1
keep=0
summary_file=

usage() { sed -n '/^# usage:/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --seed) seed=$2; shift 2 ;;
    --tasks) tasks=$2; shift 2 ;;
    --faults) faults=$2; shift 2 ;;
    --poison) poison=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --page-delay) page_delay=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --timeout) timeout_secs=$2; shift 2 ;;
    --summary) summary_file=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --keep) keep=1; shift ;;
    # CI size: about a minute and a half on two shared cores.
    --smoke) tasks=500; faults=6; poison=14; window=25; concurrency=4; timeout_secs=300; shift ;;
    -h|--help) usage ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done

target=${CARGO_TARGET_DIR:-$repo/target}
bin=$target/release/linesift
harness=$target/release/examples/fault_harness
if [ "$build" = 1 ]; then
  cargo build --release --quiet --bin linesift --examples
fi
if [ ! -x "$bin" ] || [ ! -x "$harness" ]; then
  echo "missing $bin or $harness (build first)" >&2
  exit 2
fi

# RabbitMQ's own scripts, not the /usr/sbin wrappers: those switch to the
# rabbitmq user and read /etc/rabbitmq (the shared node's settings).
rabbit_bin=${RABBITMQ_BIN:-/usr/lib/rabbitmq/bin}
if [ ! -x "$rabbit_bin/rabbitmq-server" ]; then
  rabbit_bin=$(dirname "$(readlink -f "$(command -v rabbitmq-server)")")
fi
[ -x "$rabbit_bin/rabbitmqctl" ] || { echo "no RabbitMQ scripts in $rabbit_bin" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/linesift-faults.XXXXXX")
started=$(date +%s.%N)
status=2

# Free loopback ports, chosen by the kernel.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
amqp_port=$(free_port)
dist_port=$(free_port)
origin_port=$(free_port)
node=linesift-faults-$$@localhost
amqp=amqp://guest:guest@127.0.0.1:$amqp_port/%2f
prefix=faults
rabbit=$work/rabbit
mkdir -p "$rabbit/log" "$rabbit/mnesia"

# The private node: its own cookie (so no command of this script can even
# reach the shared node), config, plugins (none), ports, data and logs.
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$rabbit/.erlang.cookie"
chmod 400 "$rabbit/.erlang.cookie"
: > "$rabbit/rabbitmq-env.conf"
echo '[].' > "$rabbit/enabled_plugins"
cat > "$rabbit/rabbitmq.conf" <<EOF
listeners.tcp.1 = 127.0.0.1:$amqp_port
loopback_users = none
disk_free_limit.absolute = 50MB
EOF
rabbit_env=(
  env HOME="$rabbit"
  RABBITMQ_CONF_ENV_FILE="$rabbit/rabbitmq-env.conf"
  RABBITMQ_CONFIG_FILE="$rabbit/rabbitmq.conf"
  RABBITMQ_ENABLED_PLUGINS_FILE="$rabbit/enabled_plugins"
  RABBITMQ_NODENAME="$node"
  RABBITMQ_NODE_IP_ADDRESS=127.0.0.1
  RABBITMQ_NODE_PORT="$amqp_port"
  RABBITMQ_DIST_PORT="$dist_port"
  RABBITMQ_MNESIA_BASE="$rabbit/mnesia"
  RABBITMQ_LOG_BASE="$rabbit/log"
  RABBITMQ_PID_FILE="$rabbit/pid"
  ERL_EPMD_ADDRESS=127.0.0.1
  RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
)
# Every rabbitmqctl call of this script goes through here: always -n $node.
ctl() { "${rabbit_env[@]}" timeout 90 "$rabbit_bin/rabbitmqctl" -n "$node" "$@"; }

# Seconds since $1 (a `date +%s.%N` stamp), one decimal.
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
log() { printf '[%6ss] %s\n' "$(since "$started")" "$*"; }

node_pid() { cat "$rabbit/pid" 2>/dev/null || true; }

start_node() {
  rm -f "$rabbit/pid"
  "${rabbit_env[@]}" "$rabbit_bin/rabbitmq-server" < /dev/null >> "$rabbit/server.out" 2>&1 &
  ctl wait --timeout 90 "$rabbit/pid" > /dev/null
}

kill_node() {
  local pid
  pid=$(node_pid)
  [ -n "$pid" ] || return 0
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}

origin_pid=
collector_pid=
worker_pids=()
watchdog=
cleanup() {
  local rc=$?
  # Best effort from here on: every step runs even if one fails.
  set +e
  trap - EXIT INT TERM
  if [ "$status" = 2 ] && [ "$rc" != 0 ]; then status=$rc; fi
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  for p in "${worker_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null
  [ -n "$collector_pid" ] && kill "$collector_pid" 2>/dev/null
  if [ -n "$(node_pid)" ]; then
    ctl stop > /dev/null 2>&1 || kill_node
    kill_node
  fi
  wait 2>/dev/null || true
  if [ "$keep" = 1 ] || [ "$status" != 0 ]; then
    echo "fault-injection: logs kept in $work" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'echo "fault-injection: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
trap 'status=130; exit' INT
trap 'echo "fault-injection: overall timeout (${timeout_secs}s)" >&2; status=124; exit' TERM
# The watchdog takes its sleep along when it is killed.
(
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  sleep "$timeout_secs" & nap=$!
  wait "$nap" && kill -TERM $$
) 2>/dev/null &
watchdog=$!

# Pace the origin so that tasks are still queued when the last fault
# lands (faults must hit a busy pipeline): every worker slot spends
# page_delay per page. The faults stop the pipeline for about half the
# window, hence 0.55; capped well under the 3 s fetch timeout.
if [ "$page_delay" = auto ]; then
  page_delay=$(awk -v t="$tasks" -v w="$window" -v s=$((workers * concurrency)) \
    'BEGIN { d = 1000 * s * w * 0.55 / t; if (d > 1200) d = 1200; printf "%d", d }')
fi

# --- set-up -------------------------------------------------------------
log "seed $seed: $tasks tasks ($poison malformed), $faults faults over ~${window}s, $workers workers x $concurrency, pages ${page_delay} ms; work dir $work"
python3 scripts/fault_origin.py plan --seed "$seed" --tasks "$tasks" --poison "$poison" \
  --faults "$faults" --window "$window" --workers "$workers" --port "$origin_port" --dir "$work"
python3 scripts/fault_origin.py serve --seed "$seed" --port "$origin_port" --page-delay "$page_delay" \
  < /dev/null > "$work/origin.log" 2>&1 &
origin_pid=$!
start_node
log "private node $node on 127.0.0.1:$amqp_port (pid $(node_pid))"
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$origin_port/__stats" > /dev/null && break; sleep 0.1; done
# The deployed task-queue policy (deploy/rabbitmq/definitions.json,
# linesift-tasks) on this node too. Without it the broker's own
# dead-lettering (x-delivery-limit, reached through returns when faults
# close connections) is at-most-once: a message it dead-letters while the
# node stops is lost, as one smoke run showed (499 of 500 accounted for).
ctl set_policy --apply-to queues --priority 10 "$prefix-tasks" "^${prefix}\\.tasks\$" \
  "{\"delivery-limit\": $delivery_limit, \"dead-letter-exchange\": \"$prefix.dlx\", \"dead-letter-strategy\": \"at-least-once\", \"overflow\": \"reject-publish\", \"max-length\": 1000000}" > /dev/null
"$harness" setup "$amqp" "$prefix" "$delivery_limit"
ctl list_queues -q name policy | grep -Eq "^${prefix}\.tasks[[:space:]]+${prefix}-tasks\$" ||
  { log "the task-queue policy is not on ${prefix}.tasks"; status=1; exit; }
# The manifest in ten slices, one list per slice and kind; the record
# lists' batches as `linesift enqueue` makes them (the harness plans a
# record's documents under its batch's task: batches.tsv).
slices=10
total_lines=$(wc -l < "$work/manifest.tsv")
per_slice=$(( (total_lines + slices - 1) / slices ))
: > "$work/batches.tsv"
for ((s = 0; s < slices; s++)); do
  sed -n "$((s * per_slice + 1)),$(((s + 1) * per_slice))p" "$work/manifest.tsv" > "$work/slice.tsv"
  for kind in urls warc-records warc-files; do
    awk -F'\t' -v k="$kind" '$1 == k { print $2 }' "$work/slice.tsv" > "$work/slice-$s-$kind.list"
  done
  "$harness" batches "$work/slice-$s-warc-records.list" "$work/batches.tsv"
done
# Downstream: records every result and dead letter before acking it.
"$harness" collect "$amqp" "$prefix" "$work/manifest.tsv" "$poison" "$work" \
  < /dev/null 2> "$work/collect.log" &
collector_pid=$!

# --- workers ------------------------------------------------------------
start_worker() {
  local i=$1
  echo "=== worker $i started at $(date +%T.%N)" >> "$work/worker-$i.log"
  AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" worker \
    --http off --allow-private --no-robots --delivery-limit "$delivery_limit" \
    --no-bind-results \
    --concurrency "$concurrency" --prefetch $((2 * concurrency)) --host-interval 0 \
    --fetch-timeout 3 --fetch-retries 0 \
    --retry-delay 0.2 --reconnect-delay 0.5 --drain-deadline 15 \
    < /dev/null >> "$work/worker-$i.log" 2>&1 &
  worker_pids[i]=$!
}
for ((i = 0; i < workers; i++)); do start_worker "$i"; done
run_started=$(date +%s.%N)

# --- enqueue: the manifest in ten slices, malformed messages between -----
# A list into the task queue, resumed where its message says (`--skip N`)
# after a stop (exit 2: a broker restart drops the connection, or refuses
# it while the node starts). `feed`, when set, is a command whose output
# is the first try's list (read from stdin), to hold the list open.
enqueue_list() {
  local kind=$1 list=$2 feed=${3:-} skip=0 tries=0 rc msg from
  while :; do
    rc=0
    if [ -n "$feed" ] && [ "$tries" = 0 ]; then
      msg=$($feed | AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" enqueue - --kind "$kind" \
        --delivery-limit "$delivery_limit" 2>&1) || rc=$?
    else
      msg=$(AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" enqueue "$list" --kind "$kind" \
        --delivery-limit "$delivery_limit" --skip "$skip" 2>&1) || rc=$?
    fi
    printf '%s\n' "$msg" >> "$work/enqueue.log"
    [ "$rc" = 0 ] && return 0
    [ "$rc" = 2 ] || { log "enqueue of $list failed ($rc): $msg"; status=1; exit; }
    from=$(printf '%s\n' "$msg" | sed -n 's/.*resume with --skip \([0-9][0-9]*\).*/\1/p' | tail -1)
    [ -n "$from" ] && skip=$from
    tries=$((tries + 1))
    enqueue_resumes=$((enqueue_resumes + 1))
    [ "$tries" -le 90 ] || { log "enqueue of $list did not get through: $msg"; status=1; exit; }
    sleep 1
  done
}
enqueue_resumes=0
# The middle slice's URLs are read from a pipe held open for 4 s half way,
# and the broker restarts meanwhile: while `enqueue` publishes (and the
# workers publish results), not only while tasks run.
restart_slice=$((slices / 2))
held_feed() {
  local list=$1 half
  half=$(( $(wc -l < "$list") / 2 ))
  head -n "$half" "$list"
  sleep 4
  tail -n +"$((half + 1))" "$list"
}
poison_per=$(( (poison + slices - 1) / slices ))
poisoned=0
restarts_while_enqueuing=0
for ((s = 0; s < slices; s++)); do
  for kind in urls warc-records warc-files; do
    list=$work/slice-$s-$kind.list
    [ -s "$list" ] || continue
    if [ "$s" = "$restart_slice" ] && [ "$kind" = urls ]; then
      ( sleep 1.5; ctl stop_app > /dev/null; sleep 1; ctl start_app > /dev/null ) &
      restart_pid=$!
      enqueue_list "$kind" "$list" "held_feed $list"
      wait "$restart_pid"
      restarts_while_enqueuing=$((restarts_while_enqueuing + 1))
      log "broker restarted while enqueue published ($enqueue_resumes resume(s) so far)"
    else
      enqueue_list "$kind" "$list"
    fi
  done
  n=$(( poison - poisoned < poison_per ? poison - poisoned : poison_per ))
  if [ "$n" -gt 0 ]; then
    "$harness" poison "$amqp" "$prefix" "$delivery_limit" "$poisoned" "$n" > /dev/null
    poisoned=$((poisoned + n))
  fi
done
log "enqueued $total_lines tasks and $poisoned malformed messages"

# --- faults -------------------------------------------------------------
# Ready messages of the task queue (empty when the broker is away).
# Not `rabbitmqctl list_queues`: its quorum-queue figures are refreshed
# periodically and read 0 for a while after a broker restart.
pending() { timeout 10 "$harness" depth "$amqp" "$prefix" 2>/dev/null || true; }

# Tasks accounted for by the collector, of all.
progress() { cat "$work/progress" 2>/dev/null || printf '0\t?\n'; }

check_workers() {
  for i in "${!worker_pids[@]}"; do
    if ! kill -0 "${worker_pids[i]}" 2>/dev/null; then
      log "worker $i died on its own (see $work/worker-$i.log)"
      status=1
      exit
    fi
  done
}

declare -A injected=()
fault_log=$work/faults.tsv
: > "$fault_log"
# The schedule comes on fd 3: rabbitmqctl may read stdin.
while IFS=$'\t' read -r at kind arg <&3; do
  while awk -v t="$(since "$run_started")" -v at="$at" 'BEGIN { exit !(t < at) }'; do sleep 0.2; done
  check_workers
  left=$(pending)
  case $kind in
    broker_restart)
      ctl stop_app > /dev/null
      sleep 1
      ctl start_app > /dev/null ;;
    broker_crash)
      kill_node
      start_node ;;
    worker_kill)
      kill -9 "${worker_pids[arg]}"
      wait "${worker_pids[arg]}" 2>/dev/null || true
      start_worker "$arg" ;;
    origin_stall)
      curl -fs -X POST "http://127.0.0.1:$origin_port/__stall?secs=$arg" > /dev/null ;;
    disk_alarm)
      ctl set_disk_free_limit 100000GB > /dev/null
      # The alarm must really be up, or this fault would be a no-op.
      for _ in $(seq 20); do
        ctl status 2>/dev/null | grep -q 'Free disk space alarm' && break
        sleep 0.5
      done
      ctl status 2>/dev/null | grep -q 'Free disk space alarm' || { log "disk alarm did not go up"; exit; }
      sleep "$arg"
      ctl set_disk_free_limit 50MB > /dev/null ;;
    connection_drop)
      ctl close_all_connections "fault injection" > /dev/null ;;
    *) log "unknown fault $kind"; exit ;;
  esac
  injected[$kind]=$(( ${injected[$kind]:-0} + 1 ))
  printf '%s\t%s\t%s\t%s\n' "$at" "$kind" "$arg" "${left:-?}" >> "$fault_log"
  log "fault $kind${arg:+ ($arg)}: ${left:-?} tasks pending"
done 3< "$work/schedule.tsv"

# --- drain --------------------------------------------------------------
log "faults done; waiting until every task is accounted for"
done_checks=0
last_log=$(date +%s)
while [ "$done_checks" -lt 2 ]; do
  check_workers
  read -r accounted total < <(progress)
  if [ "$accounted" = "$total" ] && [ "$(pending)" = 0 ]; then
    done_checks=$((done_checks + 1))
  else
    done_checks=0
  fi
  if [ $(( $(date +%s) - last_log )) -ge 10 ]; then
    log "$accounted of $total tasks accounted for"
    last_log=$(date +%s)
  fi
  sleep 1
done
drained=$(date +%s.%N)
for i in "${!worker_pids[@]}"; do kill -TERM "${worker_pids[i]}"; done
for i in "${!worker_pids[@]}"; do
  rc=0
  wait "${worker_pids[i]}" || rc=$?
  [ "$rc" = 0 ] || { log "worker $i exited with $rc on SIGTERM"; status=1; exit; }
done
worker_pids=()
# Every worker still running at the end (the last one of each slot: a
# SIGKILLed one logs nothing) logs its counters as it stops; they must add
# up: received = acked + outcomes + retried + deferred + dead-lettered +
# abandoned, none in flight.
counters_ok=0
for ((i = 0; i < workers; i++)); do
  line=$(awk '/^=== worker .* started/ { last = "" }
              /worker stopped; deliveries by how they ended/ { last = $0 }
              END { print last }' "$work/worker-$i.log")
  read -r received ended in_flight < <(printf '%s\n' "$line" | awk '{
    for (f = 1; f <= NF; f++) if (split($f, kv, "=") == 2) v[kv[1]] = kv[2]
    printf "%s %d %s\n", v["received"], v["acked"] + v["outcomes"] + v["retried"] \
      + v["deferred"] + v["dead_lettered"] + v["abandoned"], v["in_flight"] }')
  if [ -n "$received" ] && [ "$received" = "$ended" ] && [ "$in_flight" = 0 ]; then
    counters_ok=$((counters_ok + 1))
    log "worker $i: counters add up ($received received)"
  else
    log "worker $i: counters do not add up: ${line:-no counters logged}"
  fi
done
kill -TERM "$collector_pid"
wait "$collector_pid" 2>/dev/null || true
collector_pid=
log "all tasks accounted for; workers stopped cleanly"

# --- accounting ---------------------------------------------------------
check_rc=0
"$harness" check "$amqp" "$prefix" "$work/manifest.tsv" "$poison" "$work" \
  > /dev/null 2> "$work/check.log" || check_rc=$?
cat "$work/check.log" >&2
[ -s "$work/figures.tsv" ] || { echo "fault-injection: the check wrote no figures" >&2; status=1; exit; }
fig() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$work/figures.tsv"; }

ended=$(date +%s.%N)
fault_total=0
for k in "${!injected[@]}"; do fault_total=$((fault_total + injected[$k])); done
hit=$(awk -F'\t' '$4 != "0" && $4 != "?"' "$fault_log" | wc -l)
stats=$(curl -fs "http://127.0.0.1:$origin_port/__stats" || echo '{}')
{
  printf '%-34s %s\n' "seed" "$seed"
  printf '%-34s %s\n' "tasks in (distinct ids)" "$(fig tasks)"
  printf '%-34s %s\n' "  URL tasks" "$(fig tasks.urls)"
  printf '%-34s %s\n' "  WARC record / file tasks" "$(fig tasks.warc-records) / $(fig tasks.warc-files)"
  printf '%-34s %s\n' "  malformed messages" "$(fig tasks.poison)"
  printf '%-34s %s\n' "  planned to fail (404/500/stall)" "$(fig tasks.planned_to_fail)"
  printf '%-34s %s\n' "faults injected" "$fault_total (on a non-empty queue: $hit)"
  printf '%-34s %s\n' "  broker restart while enqueuing" "$restarts_while_enqueuing ($enqueue_resumes enqueue resume(s))"
  for k in $(printf '%s\n' "${!injected[@]}" | sort); do
    printf '%-34s %s\n' "  $k" "${injected[$k]}"
  done
  printf '%-34s %s\n' "documents expected / distinct" "$(fig documents.expected) / $(fig documents.distinct)"
  printf '%-34s %s\n' "document messages (duplicates)" "$(fig documents.messages) ($(fig documents.duplicates))"
  printf '%-34s %s\n' "failure events (fatal)" "$(fig failure_events) ($(fig failure_events.fatal))"
  printf '%-34s %s\n' "outcomes (events, no dead letter)" "$(fig outcomes.distinct) of $(fig tasks.planned_outcome) planned (404/500)"
  grep '^outcome\.kind\.' "$work/figures.tsv" | sed 's/^outcome\.kind\.//' \
    | while IFS=$'\t' read -r k v; do printf '%-34s %s\n' "  $k" "$v"; done
  printf '%-34s %s\n' "dead-lettered distinct (dups)" "$(fig dead.distinct) ($(fig dead.duplicates))"
  grep '^dead\.kind\.' "$work/figures.tsv" | sed 's/^dead\.kind\.//' \
    | while IFS=$'\t' read -r k v; do printf '%-34s %s\n' "  $k" "$v"; done
  printf '%-34s %s\n' "  by the broker's delivery limit" "$(fig dead.by_broker) (no x-linesift-reason)"
  printf '%-34s %s\n' "malformed in DLQ with reason" "$(fig dead.poison_with_reason) of $(fig tasks.poison)"
  printf '%-34s %s\n' "ended other than planned" "$(fig unexpected)"
  printf '%-34s %s\n' "redeliveries left in task queue" "$(fig left_in_task_queue)"
  printf '%-34s %s\n' "worker counters that add up" "$counters_ok of $workers"
  printf '%-34s %s\n' "LOST" "$(fig lost)"
  printf '%-34s %s\n' "origin requests" "$stats"
  printf '%-34s %s\n' "wall time" \
    "$(awk -v a="$run_started" -v b="$drained" -v c="$started" -v d="$ended" \
       'BEGIN { printf "%.0f s (workers start to drained), %.0f s in all", b - a, d - c }')"
} | tee "$work/summary.txt"
if [ -n "$summary_file" ]; then cp "$work/summary.txt" "$summary_file"; fi

status=0
if [ "$check_rc" != 0 ] || [ "$(fig lost)" != 0 ]; then
  echo "fault-injection: FAILED (see above)" >&2
  status=1
elif [ "$counters_ok" != "$workers" ]; then
  echo "fault-injection: FAILED: the counters of $((workers - counters_ok)) worker(s) do not add up" >&2
  status=1
elif [ "$fault_total" -lt "$faults" ]; then
  echo "fault-injection: FAILED: only $fault_total of $faults faults injected" >&2
  status=1
else
  echo "fault-injection: OK: nothing lost"
fi
