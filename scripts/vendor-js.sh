#!/usr/bin/env bash
# Refresh the small JavaScript libraries the site serves from its own static files.
#
# Each line of static/vendor/packages.txt (what the site serves) and tests/vendor/packages.txt
# (what only the tests load, such as axe-core) is "name version file-in-package": the script
# takes that exact version from the npm registry (npm pack, no install, no build), copies the
# file and the package's licence into <folder>/<name>/, and records the version and licence.
# Change a version in packages.txt, run this, check the site, commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for folder in static/vendor tests/vendor; do
while read -r name version file; do
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  (cd "$work" && npm pack --silent "$name@$version" >/dev/null && mkdir -p "$name" \
    && tar xzf "${name//\//-}-$version.tgz" -C "$name")
  target="$folder/$name"
  rm -rf "$target" && mkdir -p "$target"
  cp "$work/$name/package/$file" "$target/"
  licence=$(ls "$work/$name/package" | grep -iE '^licen[cs]e' | head -n 1)
  cp "$work/$name/package/$licence" "$target/LICENSE"
  spdx=$(node -p "require('$work/$name/package/package.json').license")
  printf '%s %s (%s) from the npm registry: %s\n' "$name" "$version" "$spdx" "$file" > "$target/VERSION"
  echo "vendored $name $version ($spdx): $target/$(basename "$file")"
done < "$folder/packages.txt"
done
