#!/usr/bin/env bash
# One line on how fast this machine is right now, printed by .ci/run beside `npm test`: the suite's budget (15 min on a
# 2-core machine) is wall time, and near-identical trees have taken 780 s and 1,655 s of vitest here, the machine twice
# as slow one day as another (docs/performance.md, "The test suite"). A fixed piece of single-core CPU work (SHA-256
# over 1 GiB, ≈ 0.6 s on an idle core here) and the load
# average say whether a slow run was the tree or the machine. Prints only; never fails the run.
set -uo pipefail
ms="$(node -e '
  const { createHash } = require("node:crypto");
  const block = Buffer.alloc(1 << 20, 7);
  const started = process.hrtime.bigint();
  const hash = createHash("sha256");
  for (let i = 0; i < 1024; i++) hash.update(block);
  hash.digest();
  console.log(Number((process.hrtime.bigint() - started) / 1000000n));
' 2>/dev/null || echo "?")"
echo "machine ($1): sha256 of 1 GiB in ${ms} ms; load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
