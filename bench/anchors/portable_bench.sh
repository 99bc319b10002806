#!/bin/bash
# The chunked workloads (W*) and in-memory kernels (N*) on a machine with neither a JDK nor Maven
# nor Dask, such as a lent machine with another CPU (an AVX-512 one, to compare with an AVX2 one):
# 'pack' writes one self-contained tarball from this built tree; the tarball's run.sh measures there.
#
#   bench/anchors/portable_bench.sh pack FILE.tar.xz   (after ./tessera demo or ./tessera bench built the tree)
#   tar xJf FILE.tar.xz -C DIR && DIR/run.sh OUT [W1 W4 ... N5 ...]
#
# run.sh runs each workload with the launcher's one JVM configuration (read from ./tessera at pack
# time; the in-memory kernels N1-N6 with WorkloadLauncher's options for them) at the CPU's own SIMD
# level and at -XX:UseAVX=2, each with the Vector API kernels and with -Dtessera.simd=false, then
# the anchor (Dask's; NumPy's for N1-N6); on the cores in $CORES (taskset, default 0,1, so that
# figures compare with the 2-core machines here). Every result goes to OUT/results.jsonl and every
# log to OUT/logs.txt: two files, whatever the number of runs (a lent machine may give back only a
# few files). The tarball carries a jlinked Temurin, the bench class path without the S3 SDK, the
# system OpenBLAS with its libraries, and this machine's Debian Dask with Debian's Python and NumPy
# 1.x (pack_python), which run.sh starts unless $PYTHON names another interpreter; where Dask does
# not run, the anchor's line in results.jsonl says so and logs.txt why. On a CPU with AVX-512,
# OpenBLAS is told it is a Skylake-X (OPENBLAS_CORETYPE, unless given) for both sides: Debian's
# 0.3.21 may not recognise a newer Xeon and fall back to generic kernels; cpu.txt names the core
# OpenBLAS chose by itself and the one it runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# Debian's interpreter, its standard library and its NumPy 1.x (with psutil), with every shared
# library they load down to the C library and its loader: Dask 2022.12 imports only beside a NumPy
# 1.x, which a lent machine's own Python may not have, and a loader of our own runs them whatever
# C library that machine has. Skipped where this machine's python3 is not Debian's with NumPy 1.x.
pack_python() {
  local target="$1" python=/usr/bin/python3 version packages=/usr/lib/python3/dist-packages module library
  "$python" -c 'import numpy, sys; sys.exit(0 if numpy.__version__.startswith("1.") else 1)' 2>/dev/null || return 0
  version="$("$python" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')"
  mkdir -p "$target/bin" "$target/lib/$version" "$target/site" "$target/libc"
  cp -L "$python" "$target/bin/python3"
  (cd "/usr/lib/$version" && tar cf - --exclude=test --exclude=idlelib --exclude=tkinter --exclude=turtledemo \
    --exclude=ensurepip --exclude=lib2to3 --exclude=pydoc_data --exclude='config-*' --exclude=__pycache__ --exclude='_test*.so' \
    --exclude='_tkinter*' --exclude='_curses*' --exclude='_dbm*' --exclude='_gdbm*' --exclude='readline*' --exclude='_sqlite3*' \
    --exclude='_ssl*' --exclude='_hashlib*' --exclude='_crypt*' --exclude='nis*' --exclude=dist-packages .) \
    | tar xf - -C "$target/lib/$version"
  for module in numpy psutil; do
    cp -r "$packages/$module" "$target/site/"
  done
  find "$target/site" -type d \( -name tests -o -name __pycache__ -o -name distutils -o -name f2py \) -prune -exec rm -rf {} +
  { echo "$python"; find "$target/site" "$target/lib/$version/lib-dynload" -name '*.so'; } | xargs -n1 ldd 2>/dev/null \
    | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' | sort -u | while read -r library; do
      cp -L "$library" "$target/libc/"
    done
}

# A library packed twice (OpenBLAS for the JVM and for NumPy) is kept once, the second a link to the first.
link_duplicates() {
  local first="$1" second="$2" library
  for library in "$second"/*; do
    if [ -f "$first/${library##*/}" ] && cmp -s "$library" "$first/${library##*/}"; then
      ln -sf "$(realpath --relative-to="$second" "$first/${library##*/}")" "$library"
    fi
  done
}

# One list of JVM options of WorkloadLauncher (a one-line List.of), space-separated.
launcher_options() { # constant name
  local launcher="$root/cli/src/main/java/org/tessera/cli/WorkloadLauncher.java" options
  options="$(sed -n "s/.*$1 = List.of(\(.*\));\$/\1/p" "$launcher" | tr -d '",')"
  [ -n "$options" ] || { echo "portable_bench: no one-line $1 in $launcher" >&2; exit 2; }
  echo "$options"
}

pack() {
  local target="$1" java_home="" stage candidate
  for candidate in "${TESSERA_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/jlink" ] && "$candidate/bin/java" -version 2>&1 | grep -q 'version "25'; then
      java_home="$candidate"
      break
    fi
  done
  [ -n "$java_home" ] || { echo "portable_bench: no JDK 25 with jlink found" >&2; exit 2; }
  [ -f "$root/bench/target/classpath.txt" ] || { echo "portable_bench: build the tree first (./tessera bench W7)" >&2; exit 2; }
  stage="$(mktemp -d)"
  trap "rm -rf '$stage'" EXIT
  "$java_home/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.incubator.vector,jdk.unsupported,java.xml,java.naming,java.sql,jdk.jfr,java.net.http,jdk.crypto.ec \
    --strip-debug --no-man-pages --no-header-files --output "$stage/jdk" 2>&1 | grep -v 'incubator' || true
  mkdir -p "$stage/cp" "$stage/lib" "$stage/py" "$stage/anchors"
  tr ':' '\n' < "$root/bench/target/classpath.txt" | grep -Ev 'awssdk|httpcomponents|netty|reactive-streams|eventstream' | xargs -I{} cp {} "$stage/cp/"
  cp -r "$root/bench/target/classes" "$stage/bench-classes"
  local blas=/usr/lib/x86_64-linux-gnu/libopenblas.so.0
  if [ -e "$blas" ]; then
    cp -L "$blas" "$stage/lib/"
    ldd "$blas" | awk '/gfortran|quadmath/ {print $3}' | xargs -r -I{} cp -L {} "$stage/lib/"
  fi
  local packages=/usr/lib/python3/dist-packages
  for module in dask toolz tlz cloudpickle fsspec partd locket yaml packaging; do
    if [ -d "$packages/$module" ]; then
      cp -r "$packages/$module" "$stage/py/"
    fi
  done
  find "$stage/py" -type d \( -name tests -o -name __pycache__ \) -prune -exec rm -rf {} +
  find "$stage/py" -name '*.so' -delete
  pack_python "$stage/python"
  [ -d "$stage/python/libc" ] && link_duplicates "$stage/lib" "$stage/python/libc"
  cp "$here/dask_workloads.py" "$here/numpy_kernels.py" "$here/anchor_result.py" "$stage/anchors/"
  sed -n 's/^tessera_jvm_opts="\(.*\)"$/\1/p' "$root/tessera" > "$stage/jvm-options.txt"
  [ -s "$stage/jvm-options.txt" ] || { echo "portable_bench: no tessera_jvm_opts in ./tessera" >&2; exit 2; }
  launcher_options IN_MEMORY_OPTIONS > "$stage/jvm-options-kernels.txt"
  launcher_options REQUIRED_OPTIONS > "$stage/jvm-options-required.txt"
  sed -n '/^# --- run.sh ---$/,$p' "$0" | tail -n +2 > "$stage/run.sh"
  chmod +x "$stage/run.sh"
  tar cf - -C "$stage" . | xz -T0 -6 > "$target"
  echo "portable_bench: $(du -h "$target" | cut -f1) in $target"
}

case "${1:-}" in
  pack) [ $# -eq 2 ] || { echo "usage: $0 pack FILE.tar.xz" >&2; exit 2; }; pack "$2"; exit 0 ;;
  *) echo "usage: $0 pack FILE.tar.xz" >&2; exit 2 ;;
esac

# --- run.sh ---
#!/bin/bash
# Runs the chunked workloads from this unpacked tarball (see bench/anchors/portable_bench.sh).
set -uo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: run.sh OUT [W1 W4 ...]}"; shift
[ $# -gt 0 ] && workloads=("$@") || workloads=(W1 W4 W5 W6 W7 W8 W2)
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cores="${CORES:-0,1}"
python=("${PYTHON:-python3}")
pythonpath="$kit/py"
if [ -z "${PYTHON:-}" ] && [ -d "$kit/python/libc" ]; then
  # The packed interpreter, started by the packed loader on the packed libraries.
  python=("$(ls "$kit"/python/libc/ld-linux*)" --library-path "$kit/python/libc" "$kit/python/bin/python3")
  export PYTHONHOME="$kit/python"
  pythonpath="$kit/python/site:$kit/py"
fi
java="$kit/jdk/bin/java"
classpath="$kit/bench-classes:$(ls "$kit"/cp/*.jar | tr '\n' ':')"
read -r -a chunked_options < "$kit/jvm-options.txt"
read -r -a kernel_options < "$kit/jvm-options-kernels.txt"
read -r -a required_options < "$kit/jvm-options-required.txt"
blas=()
[ -e "$kit/lib/libopenblas.so.0" ] && blas=(-Dtessera.blas.library="$kit/lib/libopenblas.so.0")
# For a $PYTHON without psutil, whose Dask would size its thread pool by the machine's cores, not the affinity.
export LD_LIBRARY_PATH="$kit/lib" DASK_NUM_WORKERS="$(taskset -c "$cores" nproc)"
{ grep -m1 'model name' /proc/cpuinfo; grep -m1 '^flags' /proc/cpuinfo | grep -o 'avx[0-9a-z_]*' | sort -u | tr '\n' ' '; echo; } > "$out/cpu.txt"
blas_core() {
  [ -e "$kit/lib/libopenblas.so.0" ] || return 0
  "${python[@]}" -c 'import ctypes, sys; blas = ctypes.CDLL(sys.argv[1]); blas.openblas_get_corename.restype = ctypes.c_char_p; print("OpenBLAS core:", blas.openblas_get_corename().decode())' \
    "$kit/lib/libopenblas.so.0" >> "$out/cpu.txt" 2>&1
}
blas_core
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -qm1 '^flags.* avx512f' /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=SkylakeX
  blas_core
fi

record() { # configuration, JSON file, exit status: one line of results.jsonl
  "${python[@]}" - "$1" "$2" "$3" >> "$out/results.jsonl" <<'EOF'
import json, sys
configuration, path, status = sys.argv[1:]
try:
    result = json.load(open(path))
except (OSError, ValueError):
    result = {"error": "exit " + status}
result["configuration"] = configuration
print(json.dumps(result))
EOF
}

# A chunked workload calls BLAS from each task on one thread, an in-memory kernel (N*) on all the
# cores given, as WorkloadLauncher.environment and NumPy do.
blas_threads() { # workload
  case "$1" in N*) taskset -c "$cores" nproc ;; *) echo 1 ;; esac
}
jvm_options() { # workload: WorkloadLauncher.launcherOptions
  case "$1" in N*) echo "${kernel_options[@]}" ;; *) echo "${chunked_options[@]}" ;; esac
}

# WorkloadLauncher.command's options after the configuration's, and where the system OpenBLAS is not, the packed one.
tessera() { # configuration, workload, extra JVM options...
  local configuration="$1" workload="$2"; shift 2
  OPENBLAS_NUM_THREADS="$(blas_threads "$workload")" timeout 300 taskset -c "$cores" "$java" $(jvm_options "$workload") "${required_options[@]}" "${blas[@]}" "$@" -cp "$classpath" org.tessera.bench.workload.WorkloadRunner "$workload" \
    --json "$out/last.json" >> "$out/logs.txt" 2>&1
  record "$configuration" "$out/last.json" $?
  rm -f "$out/last.json"
}

for workload in "${workloads[@]}"; do
  echo "== $workload" >> "$out/logs.txt"
  tessera native "$workload"
  tessera avx2 "$workload" -XX:UseAVX=2
  tessera native-scalar "$workload" -Dtessera.simd=false
  tessera avx2-scalar "$workload" -XX:UseAVX=2 -Dtessera.simd=false
  case "$workload" in N*) anchor=numpy_kernels.py ;; *) anchor=dask_workloads.py ;; esac
  (cd "$out" && PYTHONPATH="$pythonpath" OPENBLAS_NUM_THREADS="$(blas_threads "$workload")" timeout 300 taskset -c "$cores" "${python[@]}" \
    "$kit/anchors/$anchor" "$workload" --json "$out/last.json" >> "$out/logs.txt" 2>&1)
  record "${anchor%%_*}" "$out/last.json" $?
  rm -f "$out/last.json"
done
"${python[@]}" - "$out/results.jsonl" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    figures = f"{r['seconds']:.3f} s, {r['peak_rss_bytes'] / 1e6:.0f} MB" if "seconds" in r else r.get("error", "?")
    print(f"{r.get('workload', '?'):4} {r['configuration']:14} {figures}  {r.get('machine', {}).get('simd', '')}")
EOF
