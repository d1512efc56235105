#!/usr/bin/env bash
# Checks that C# files keep the .NET layout conventions the generated file
# follows. No .NET formatter can be installed here (dotnet format needs the
# SDK's MSBuild and NuGet), so the conventions are checked as rules:
#   - four-space indentation, no tabs, no trailing whitespace;
#   - Allman braces: `{` and `}` alone on their line (a `}` may be followed by
#     `)`, `;` or `,`, as in an initializer), no `} else {`;
#   - no blank line after `{` or before `}`, never two blank lines in a row;
#   - the file ends with exactly one newline.
#   tests/conformance/dotnet/format-check.sh FILE...
# Exit 0 when every file keeps them; 1 naming each file, line and rule broken.
set -euo pipefail

status=0
for file in "$@"; do
  if ! awk -v file="$file" '
    function fail(rule) { printf "%s:%d: %s\n", file, NR, rule > "/dev/stderr"; bad = 1 }
    {
      line = $0
      text = line
      sub(/^ +/, "", text)
      indent = length(line) - length(text)
      if (line ~ /\t/) fail("tab character (indent with four spaces)")
      if (line ~ / +$/) fail("trailing whitespace")
      if (text != "" && indent % 4 != 0) fail("indentation is not a multiple of four spaces")
      if (text !~ /^\/\// && text ~ /\{$/ && text != "{") fail("`{` not on a line of its own (Allman braces)")
      if (text ~ /^\}/ && text != "}" && text !~ /^\}[);,]/) fail("`}` followed by more code (Allman braces)")
      if (text == "" && previous == "{") fail("blank line after `{`")
      if (text == "}" && NR > 1 && previous == "" && blank) fail("blank line before `}`")
      if (text == "" && blank) fail("two blank lines in a row")
      blank = (text == "")
      previous = text
    }
    END { exit bad }
  ' "$file"; then
    status=1
  fi
  if [ -s "$file" ] && [ -n "$(tail -c 1 "$file")" ]; then
    echo "$file: does not end with a newline" >&2
    status=1
  elif [ "$(tail -c 2 "$file" | od -An -c | tr -d ' ')" = '\n\n' ]; then
    echo "$file: ends with a blank line" >&2
    status=1
  fi
done
exit "$status"
