#!/usr/bin/env bash
# Every device check of issue 36 in one lease: benches/many_cores_check.sh, then
# benches/gpu_check.sh, each writing its logs to a folder of its own; what comes back from the
# device tool is limited to 8 files, so the logs travel as one archive beside the two summaries.
#
# The device tool's call: run(command="bash benches/device_check.sh", timeout_s=540,
#   carry=[".whl", "python/maquis/_core.abi3.so", "target/release/examples/vector_speed"])

set -u
cd "$(dirname "$0")/.."
DEST="${OUT:-$(mktemp -d)}"
LOGS=$(mktemp -d)
OUT="$LOGS/cores" bash benches/many_cores_check.sh
OUT="$LOGS/gpu" bash benches/gpu_check.sh
cp "$LOGS/cores/summary.txt" "$DEST/cores_summary.txt"
cp "$LOGS/gpu/summary.txt" "$DEST/gpu_summary.txt"
tar czf "$DEST/logs.tar.gz" -C "$LOGS" .
echo "logs: $DEST/logs.tar.gz"
