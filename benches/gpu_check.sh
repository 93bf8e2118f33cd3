#!/usr/bin/env bash
# The GPU learner's checks, on a machine with CUDA and 16 cores (run from the repository root):
#   1. `python -m maquis bench --train --device cuda` at 4096 and 16384 envs x 16 threads (the
#      environments in two halves stepped in turn), then the same rollouts with one vector env (no
#      overlap) and with two halves of 8 threads: where the rollout's time goes (env wait, staging,
#      forward, sampling, device wait; device time per stage);
#   2. `examples/train_ppo.py --device cuda` for a fixed budget of env steps;
#   3. the PPO smoke tests of tests/test_examples.py and tests/test_dday_examples.py on cpu and cuda,
#      and the collection loop's unit tests.
# Every step has its own time limit and the script goes on past a failed one; each step's exit
# status is in $OUT/summary.txt. Needs: python3 with torch (CUDA) and numpy, pytest; gymnasium,
# farama-notifications and pettingzoo as wheels in .whl/ (installed to /tmp/site), the extension
# built here (python/maquis/_core.abi3.so). Planned to end within 4 minutes on a 16-core H200 machine
# (each step's limit bounds it: 6 minutes at worst).
#
# The device tool's call: run(command="bash benches/gpu_check.sh", timeout_s=400,
#                             carry=[".whl", "python/maquis/_core.abi3.so"])

set -u
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1 OMP_WAIT_POLICY=PASSIVE
SUMMARY="$OUT/summary.txt"
SITE="${SITE:-/tmp/site}"  # where the carried wheels are installed
: > "$SUMMARY"

# step NAME SECONDS COMMAND...: runs COMMAND under a time limit, its output to $OUT/NAME.log.
step() {
    local name=$1 limit=$2
    shift 2
    local t0=$SECONDS
    echo "== $name ($(date -u +%T), limit ${limit}s): $*" | tee -a "$SUMMARY"
    timeout --kill-after=10 "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    echo "   $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$SUMMARY"
    tail -n 25 "$OUT/$name.log"
    return 0
}

if [ -d .whl ] && ls .whl/*.whl > /dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" .whl/*.whl \
        || echo "wheels: pip install failed" | tee -a "$SUMMARY"
    export PYTHONPATH="$SITE:$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
else
    export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
fi

{
    date -u
    nproc
    uptime
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1
    python3 -c 'import sys, torch, numpy; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "-", "numpy", numpy.__version__)' 2>&1
    python3 -c 'import maquis, gymnasium; print("maquis", maquis.__version__, maquis.__file__, "gymnasium", gymnasium.__version__); import maquis.dday; print("send/recv:", hasattr(maquis.MaquisVectorEnv, "send"), hasattr(maquis.MaquisVectorEnv, "recv"))' 2>&1
} > "$OUT/machine.log" 2>&1
cat "$OUT/machine.log"

# 1. The rollout loop on the GPU, as the issue's command gives it (two halves stepped in turn on
#    cuda): the table with the timers per stage, and the JSON.
step bench_train 120 python3 -m maquis bench --train --device cuda --envs 4096,16384 --threads 16 \
    --repeats 3 --seconds 0.5 --json "$OUT/bench_train.json"

# 1b. uint8 rows one at a time (a JSON line per row in the log, so that a failed row loses only
#     itself): the environments in one vector env (no overlap) on 16 threads, and in two halves of
#     8 threads each (the workers of one half spin a while after its step, beside the other's).
step rollout_variants 60 python3 - <<'PY'
import json, traceback
from maquis.bench_train import bench_train
for halves, threads in ((1, 16), (2, 8)):
    for n in (4096, 16384):
        try:
            row = bench_train(2.0, 3, "normal", threads, "uint8", num_envs=n, device="cuda", halves=halves)
            print(json.dumps(row), flush=True)
        except Exception:
            traceback.print_exc()
PY

# 2. The training example on the GPU: 4096 envs, 16 env threads, a fixed budget of env steps.
step train_ppo 75 python3 examples/train_ppo.py --device cuda --num-envs 4096 --num-steps 64 --env-threads 16 \
    --threads 4 --total-steps 3000000 --minutes 0.5 --eval-every 0 --final-eval-episodes 200 --baselines random \
    --no-progress --out /tmp/gpu_check_ppo
cp /tmp/gpu_check_ppo/final_eval.json "$OUT/train_ppo_final_eval.json" 2>/dev/null

# 3. The smoke tests (cpu and cuda variants; the examples run in subprocesses, in parallel).
if python3 -c 'import xdist' 2>/dev/null; then parallel=(-n 8); else parallel=(); fi
step pytest 100 python3 -m pytest -q -p no:cacheprovider "${parallel[@]}" tests/test_examples.py tests/test_dday_examples.py \
    -k "ppo or uint8 or halves or masked or bad_device or bench_rollout" -rs

echo "== done $(date -u +%T)" | tee -a "$SUMMARY"
