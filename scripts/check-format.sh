#!/usr/bin/env bash
# check-format.sh: fails (exit 1) listing every tracked C++ file that clang-format would change.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
drift=()
while IFS= read -r file; do
  clang-format "$file" | cmp -s - "$file" || drift+=("$file")
done < <(git ls-files '*.cpp' '*.hpp' '*.h')
if [ ${#drift[@]} -gt 0 ]; then
  printf 'clang-format drift (run: clang-format -i FILE):\n'; printf '  %s\n' "${drift[@]}"
  exit 1
fi
echo "clang-format: every file is formatted"
