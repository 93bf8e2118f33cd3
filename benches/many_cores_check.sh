#!/usr/bin/env bash
# The many-cores table of docs/performance.md, on a machine with 16 cores (run from the
# repository root): the vector engine against the engine on as many cores, from Rust with the
# pieces of docs/scaling_model.md (`vector_speed --detail`, twice: the machine drifts), and
# through Python (`maquis bench`, copy=False rows); the other games' vector envs at 1 and 16
# threads. Needs the extension built here (python/maquis/_core.abi3.so), the release example
# target/release/examples/vector_speed, and the wheels of benches/steps.sh. About 4 minutes.

cd "$(dirname "$0")/.."
. benches/steps.sh
begin_check
cat "$OUT/machine.log"

step vector_speed_1 150 target/release/examples/vector_speed --detail --repeats 3 --seconds 0.15
step maquis_bench 150 python3 -m maquis bench --envs 4096,16384 --threads 1,2,4,8,16 --repeats 3 --seconds 0.15 \
    --json "$OUT/maquis_bench.json"
step other_games 60 bash -c 'python3 -m maquis dday bench --envs 4096 --threads 1,16 --repeats 3 --seconds 0.3 &&
    python3 -m maquis maurice bench --envs 1024 --threads 1,16 --repeats 3 --seconds 0.3'
step vector_speed_2 90 target/release/examples/vector_speed --detail --envs 4096 --repeats 3 --seconds 0.15
echo "== done $(date -u +%T)" | tee -a "$SUMMARY"
