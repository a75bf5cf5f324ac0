#!/usr/bin/env bash
# Installs the Debian packages vkqs needs, only those missing (quick when all
# are present), on Debian 12 (bookworm) and 13 (trixie).  Package names that
# differ between releases are found from what the release offers, not
# hard-coded: the clang runtime (libclang-rt-N-dev) matches the clang the
# release installs.  An optional package the release lacks costs only what
# needs it, said in one line.  Needs root or sudo for the install itself.
set -euo pipefail
required=(libvulkan-dev libvulkan-volk-dev libjansson-dev glslang-tools spirv-headers
	mesa-vulkan-drivers vulkan-validationlayers vulkan-tools cmake python3 python3-scipy
	gcc make clang)
# optional: package, then what goes without it
optional=(
	"python3-jinja2|the comparison report (vkqs report) and its tests"
	"chromium|the report's browser test and the current Khronos layer (chromium-common's)"
)

# (outputs are captured, not piped into grep -q: with pipefail, grep
# leaving early fails the producer with SIGPIPE)
installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == *'install ok installed'* ]]; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
updated=false
apt_update() {
	$updated && return 0
	$sudo apt-get update -q >/dev/null
	updated=true
}
offered() { # the release has a candidate for the package
	apt_update
	[[ $(apt-cache policy "$1" 2>/dev/null) =~ Candidate:\ [^\(] ]]
}
install() {
	[ $# -eq 0 ] && return 0
	echo "ci/setup.sh: installing $*"
	apt_update
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@" >/dev/null
}

missing=()
for p in "${required[@]}"; do installed "$p" || missing+=("$p"); done
install "${missing[@]}"

# The clang runtime of the installed clang (LeakSanitizer, libFuzzer).
major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
rt="libclang-rt-${major}-dev"
opt=("$rt|the SPIR-V fuzz target (ci/test.sh replays its corpus only)" "${optional[@]}")
missing=()
for entry in "${opt[@]}"; do
	p=${entry%%|*}
	installed "$p" && continue
	if offered "$p"; then
		missing+=("$p")
	else
		echo "ci/setup.sh: $p is not offered here: going without ${entry#*|}"
	fi
done
install "${missing[@]}"
