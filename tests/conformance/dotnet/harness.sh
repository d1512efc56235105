# Sourced by the .NET bench scripts (bench.sh, bench-constrained.sh,
# bench-patterns.sh) after build.sh's env.sh: `compile_harness OUT_DLL FILE...`
# compiles the files into an executable with Roslyn's csc (C# 8, nullable,
# warnings as errors, optimized) against the netcoreapp3.1 reference
# assemblies of the SDK env.sh names, with the testee's runtime
# configuration beside it. Needs BUILD and DOTNET set.
compile_harness() {
  local out="$1"
  shift
  local csc ref_dir dll refs=()
  csc="$(ls "$(dirname "$DOTNET")"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
  ref_dir="$(ls -d "$(dirname "$DOTNET")"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
  for dll in "$ref_dir"/*.dll; do refs+=("-r:$dll"); done
  "$DOTNET" "$csc" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warnaserror -optimize+ \
    "${refs[@]}" -target:exe -out:"$out" "$@"
  cp "$BUILD/testee.runtimeconfig.json" "${out%.dll}.runtimeconfig.json"
}
