#!/usr/bin/env bash
# Installs the Debian 12 packages vkqs needs, only those missing (quick when
# all are present).  Needs root or sudo for the install itself.
set -euo pipefail
pkgs=(libvulkan-dev libvulkan-volk-dev glslang-tools spirv-headers
      mesa-vulkan-drivers vulkan-validationlayers vulkan-tools cmake python3 gcc make
      clang libclang-rt-14-dev
      python3-jinja2 chromium)  # the comparison report and its browser test;
      # chromium-common also brings a current Khronos validation layer
      # (tools/current_layer.py, ctest suite.validation_current)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ci/setup.sh: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
