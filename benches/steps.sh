# Sourced by the device checks (from the repository root). `begin_check` sets up a check: $OUT
# (given, or a new folder), $SUMMARY, the carried wheels on the path, and $OUT/machine.log with the
# machine's cores, load and caches.
begin_check() {
    set -u
    OUT="${OUT:-$(mktemp -d)}"
    mkdir -p "$OUT"
    export PYTHONUNBUFFERED=1
    SUMMARY="$OUT/summary.txt"
    : > "$SUMMARY"
    use_carried_wheels
    { date -u; nproc; uptime; lscpu 2>&1 | grep -E 'Model name|Socket|NUMA node\(s\)|L2|L3'; } > "$OUT/machine.log" 2>&1
}

# In the device checks: `step NAME SECONDS COMMAND...` runs COMMAND under a time limit,
# its output to $OUT/NAME.log and its exit status to $SUMMARY, and goes on past a failure (a
# device lease is too short to stop at the first broken step).
# With STEPS set (names, space-separated), only those steps run.
step() {
    local name=$1 limit=$2
    shift 2
    if [ -n "${STEPS:-}" ] && [[ " $STEPS " != *" $name "* ]]; then
        return 0
    fi
    local t0=$SECONDS
    echo "== $name ($(date -u +%T), limit ${limit}s): $*" | tee -a "$SUMMARY"
    timeout --kill-after=10 "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    echo "   $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$SUMMARY"
    tail -n 25 "$OUT/$name.log"
    return 0
}

# The carried wheels (gymnasium, pettingzoo: not in the device's image) on the path, then this
# checkout's package.
use_carried_wheels() {
    local site="${SITE:-/tmp/site}"
    if [ -d .whl ] && ls .whl/*.whl > /dev/null 2>&1; then
        python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
            .whl/*.whl || echo "wheels: pip install failed" | tee -a "$SUMMARY"
        export PYTHONPATH="$site:$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
    else
        export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
    fi
}
