# shellcheck shell=bash
# Sourced by tools/dev.sh and tools/wheel.sh. install_missing installs the Debian packages of
# the array PACKAGES that are not installed (as root; otherwise it names them and exits 2).
# A package named in the associative array COMMAND_OF, when the caller declares it, counts as
# present when its command is: NodeSource's nodejs, for one, bundles npm and conflicts with
# Debian's npm package, which apt would otherwise try to install in its place.
install_missing() {
  local missing=() p command
  for p in "${PACKAGES[@]}"; do
    command=""
    if declare -p COMMAND_OF >/dev/null 2>&1; then command=${COMMAND_OF[$p]:-}; fi
    if [[ -n $command ]] && command -v "$command" >/dev/null 2>&1; then
      continue
    fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
      echo "missing Debian packages: ${missing[*]} (run as root to install them)" >&2
      exit 2
    fi
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}
