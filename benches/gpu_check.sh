#!/usr/bin/env bash
# The GPU learner's checks, on a machine with CUDA and 16 cores (run from the repository root):
#   1. `python -m maquis bench --train --device cuda` at 4096 and 16384 envs x 16 threads (its
#      defaults: one vector env, the forward pass and the sampling as a CUDA graph), then single
#      rows: one vector env or two halves stepped in turn on shared threads, 16 or 15 env threads,
#      the workers' spin between steps: where the rollout's time goes (env wait, staging, forward,
#      sampling, device wait, store; device time per stage); and what a sleeping worker costs;
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
#     uint8 rows, the forward pass and the sampling as one CUDA graph: the environments in one
#     vector env (no overlap) or in two halves stepped in turn on one shared set of threads (16, or
#     15 with a core left to the Python thread that launches the network), the workers spinning
#     200 µs between steps (the env's default) or 2 ms (the default with a learner on CUDA); and
#     for reference the two halves of 8 threads each on their own pools, as before they shared.
step rollout_variants 200 python3 - <<'PY'
import json, traceback
from maquis.bench_train import bench_train
#          halves, threads, spin, shared threads
variants = [(1, 16, 0.0002, True), (1, 16, "auto", True), (1, 15, "auto", True), (2, 8, 0.0002, False),
            (2, 16, "auto", True), (2, 15, "auto", True), (2, 15, 0.0002, True), (2, 14, "auto", True)]
for n in (4096, 16384):
    for halves, threads, spin, shared in variants:
        try:
            row = bench_train(2.0, 3, "normal", threads, "uint8", num_envs=n, device="cuda", halves=halves, graph=True,
                              worker_spin=spin, share_threads=shared)
            print(json.dumps(row), flush=True)
        except Exception:
            traceback.print_exc()
PY

# 1c. What a sleeping worker costs a step: copy=False uint8 steps of 4096 envs with the Python
#     thread busy for a gap between them (as a learner's step is), the workers spinning 200 µs or
#     2 ms after each step; median step time.
step wake 60 python3 - <<'PY'
import time, numpy as np, maquis
for threads in (16, 15):
    v = maquis.MaquisVectorEnv(4096, num_threads=threads, copy=False, observation_dtype="uint8")
    v.reset(seed=0)
    for spin in (0.0002, 0.002, 0.0002, 0.002):
        v.worker_spin = spin
        row = {}
        for gap in (0.0, 0.0003, 0.0006, 0.001):
            ts = []
            for _ in range(300):
                a = v.sample_actions()
                t = time.perf_counter(); v.step(a); ts.append(time.perf_counter() - t)
                end = time.perf_counter() + gap
                while time.perf_counter() < end:
                    pass
            row[f"gap_{gap * 1e6:.0f}us"] = round(float(np.median(ts)) * 1e6, 1)
        print(f"threads {threads} spin {spin * 1e6:.0f} us: step us {row}", flush=True)
PY

# 2. The training example on the GPU: 4096 envs, 15 env threads (a core for the learner's thread),
#    a fixed budget of env steps, in two halves and in one.
step train_ppo 75 python3 examples/train_ppo.py --device cuda --halves 2 --num-envs 4096 --num-steps 64 --env-threads 15 \
    --threads 4 --total-steps 3000000 --minutes 0.5 --eval-every 0 --final-eval-episodes 200 --baselines random \
    --no-progress --out /tmp/gpu_check_ppo
cp /tmp/gpu_check_ppo/final_eval.json "$OUT/train_ppo_final_eval.json" 2>/dev/null
step train_ppo_one_half 75 python3 examples/train_ppo.py --device cuda --halves 1 --num-envs 4096 --num-steps 64 \
    --env-threads 15 --threads 4 --total-steps 3000000 --minutes 0.5 --eval-every 0 --final-eval-episodes 200 \
    --baselines random --no-progress --out /tmp/gpu_check_ppo_one_half

# 3. The smoke tests (cpu and cuda variants; the examples run in subprocesses, in parallel).
if python3 -c 'import xdist' 2>/dev/null; then parallel=(-n 8); else parallel=(); fi
step pytest 100 python3 -m pytest -q -p no:cacheprovider "${parallel[@]}" tests/test_examples.py tests/test_dday_examples.py \
    -k "ppo or uint8 or halves or masked or bad_device or bench_rollout or staging or graph" -rs

echo "== done $(date -u +%T)" | tee -a "$SUMMARY"
