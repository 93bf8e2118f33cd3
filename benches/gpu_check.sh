#!/usr/bin/env bash
# The GPU learner's checks, on a machine with CUDA and 16 cores (run from the repository root):
#   1. `python -m maquis bench --train --device cuda` at 4096 and 16384 envs x 16 threads (its
#      defaults: one vector env, the forward pass and the sampling as a CUDA graph), then single
#      rows: op by op or graphed, one vector env or two halves stepped in turn (of 16 or 8
#      threads), 15 env threads, float32 rows: where the rollout's time goes (env wait, staging,
#      forward, sampling, device wait, store; device time per stage);
#   2. `examples/train_ppo.py --device cuda` for a fixed budget of env steps, two halves and one;
#   3. the PPO smoke tests of tests/test_examples.py and tests/test_dday_examples.py on cpu and cuda,
#      and the collection loop's unit tests (page-locked staging, graphs).
# Every step has its own time limit and the script goes on past a failed one; each step's exit
# status is in $OUT/summary.txt; STEPS="name ..." runs only those steps (benches/steps.sh). Needs:
# python3 with torch (CUDA) and numpy, pytest; gymnasium, farama-notifications and pettingzoo as
# wheels in .whl/ (installed to /tmp/site), the extension built here (python/maquis/_core.abi3.so).
# About 5 minutes on a 16-core H200 machine (each step's limit bounds it: 9 minutes at worst);
# benches/device_check.sh runs it after the many-cores table.
#
# The device tool's call: run(command="bash benches/gpu_check.sh", timeout_s=600,
#                             carry=[".whl", "python/maquis/_core.abi3.so"])

cd "$(dirname "$0")/.."
. benches/steps.sh
begin_check
export OMP_WAIT_POLICY=PASSIVE
{
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1
    python3 -c 'import sys, torch, numpy; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "-", "numpy", numpy.__version__)' 2>&1
    python3 -c 'import maquis, gymnasium; print("maquis", maquis.__version__, maquis.__file__, "gymnasium", gymnasium.__version__); import maquis.dday; print("send/recv:", hasattr(maquis.MaquisVectorEnv, "send"), hasattr(maquis.MaquisVectorEnv, "recv"))' 2>&1
} >> "$OUT/machine.log" 2>&1
cat "$OUT/machine.log"

# 1. The rollout loop on the GPU, as the issue's command gives it: the table with the timers per
#    stage, and the JSON.
step bench_train 120 python3 -m maquis bench --train --device cuda --envs 4096,16384 --threads 16 \
    --repeats 3 --seconds 0.5 --json "$OUT/bench_train.json"

# 1b. Rows one at a time (a JSON line per row in the log, so that a failed row loses only itself),
#     uint8 unless named: the environments in one vector env (no overlap) or in two halves; on 16
#     threads, 15 (a core left to the Python thread that launches the network) or two halves of 8
#     (the workers of one half spin a while after its step, beside the other's); the forward pass
#     and the sampling launched op by op or replayed as one CUDA graph.
step rollout_variants 150 python3 - <<'PY'
import json, traceback
from maquis.bench_train import bench_train
variants = [(1, 16, False, "uint8"), (1, 16, True, "uint8"), (2, 16, True, "uint8"), (2, 8, True, "uint8"),
            (1, 15, True, "uint8"), (1, 16, True, "float32")]
for n in (4096, 16384):
    for halves, threads, graph, dtype in variants:
        try:
            row = bench_train(2.0, 3, "normal", threads, dtype, num_envs=n, device="cuda", halves=halves, graph=graph)
            print(json.dumps(row), flush=True)
        except Exception:
            traceback.print_exc()
PY

# 2. The training example on the GPU: 4096 envs, 16 env threads, a fixed budget of env steps.
step train_ppo 75 python3 examples/train_ppo.py --device cuda --num-envs 4096 --num-steps 64 --env-threads 16 \
    --threads 4 --total-steps 3000000 --minutes 0.5 --eval-every 0 --final-eval-episodes 200 --baselines random \
    --no-progress --out /tmp/gpu_check_ppo
cp /tmp/gpu_check_ppo/final_eval.json "$OUT/train_ppo_final_eval.json" 2>/dev/null
step train_ppo_one_half 75 python3 examples/train_ppo.py --device cuda --halves 1 --num-envs 4096 --num-steps 64 \
    --env-threads 16 --threads 4 --total-steps 3000000 --minutes 0.5 --eval-every 0 --final-eval-episodes 200 \
    --baselines random --no-progress --out /tmp/gpu_check_ppo_one_half

# 3. The smoke tests (cpu and cuda variants; the examples run in subprocesses, in parallel).
if python3 -c 'import xdist' 2>/dev/null; then parallel=(-n 8); else parallel=(); fi
step pytest 100 python3 -m pytest -q -p no:cacheprovider "${parallel[@]}" tests/test_examples.py tests/test_dday_examples.py \
    -k "ppo or uint8 or halves or masked or bad_device or bench_rollout or staging or graph" -rs

echo "== done $(date -u +%T)" | tee -a "$SUMMARY"
