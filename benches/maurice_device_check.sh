#!/usr/bin/env bash
# Maurice Lite on a 16-core GPU machine: `python -m maquis maurice bench` from 1 to 16 threads
# (compact observation, then the full one at the widest batch), and examples/maurice_ppo.py on
# CUDA for a fixed time from scratch against the heuristic. Needs python3 with torch (CUDA) and
# numpy; gymnasium, farama-notifications and pettingzoo as wheels in .whl/ (installed to
# /tmp/site); the extension built here (python/maquis/_core.abi3.so). About 8 minutes.
#
# The device tool's call: run(command="bash benches/maurice_device_check.sh", timeout_s=560,
#                             carry=[".whl", "python/maquis/_core.abi3.so"])
set -u
cd "$(dirname "$0")/.."
OUT="${OUT:-$(mktemp -d)}"
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
fi
export PYTHONPATH="/tmp/site:$PWD/python" PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
QUICK="${QUICK:-}"  # QUICK=1: tiny settings, to check the script here
{ nproc; nvidia-smi --query-gpu=name,memory.total --format=csv 2>&1; uptime
  python3 -c 'import torch, maquis; print("torch", torch.__version__, torch.cuda.is_available())'; } | tee "$OUT/machine.txt"
if [ -n "$QUICK" ]; then BENCH=(--quick --envs 64 --threads 1,2 --search 1); MIN=0.2; ENVS=64; THREADS=1
else BENCH=(--envs 1024,4096 --threads 1,2,4,8,16 --repeats 3 --seconds 0.5 --search 10); MIN=3; ENVS=1024; THREADS=15; fi
timeout 200 python3 -m maquis maurice bench "${BENCH[@]}" --observation compact 2>&1 | tee "$OUT/bench_compact.txt"
echo "rc=$?" >> "$OUT/bench_compact.txt"
if [ -z "$QUICK" ]; then
    timeout 70 python3 -m maquis maurice bench --envs 4096 --threads 16 --repeats 3 --seconds 0.5 --search 0 \
        --observation full 2>&1 | tee "$OUT/bench_full.txt"
fi
DEVICE=cuda; python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' || DEVICE=cpu
timeout 280 python3 examples/maurice_ppo.py --device "$DEVICE" --minutes "$MIN" --num-envs "$ENVS" \
    --env-threads "$THREADS" --eval-every 10 --eval-episodes 128 --out /tmp/maurice_ppo 2>&1 | tail -40 | tee "$OUT/ppo.txt"
cp /tmp/maurice_ppo/curve.csv "$OUT/ppo_curve.csv" 2>/dev/null
cp /tmp/maurice_ppo/final_eval.json "$OUT/ppo_final_eval.json" 2>/dev/null
echo done
