#!/bin/bash
# Install the Court Piece Referee on a Raspberry Pi running Raspberry Pi OS (Bookworm).
#
#   git clone <this repository> courtpiece && cd courtpiece
#   sudo hardware/install.sh            # the referee service
#   sudo hardware/install.sh --kiosk    # ... plus Chromium full screen on the Pi's display
#
# Safe to run again (to upgrade after a git pull): it reinstalls the program and the
# units, keeps /etc/courtpiece/table.toml and the journal in /var/lib/courtpiece.
# docs/install.md explains every step. --dry-run prints the steps without doing them.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${COURTPIECE_PREFIX:-/opt/courtpiece}
ETC_DIR=${COURTPIECE_ETC:-/etc/courtpiece}
UNIT_DIR=${COURTPIECE_UNIT_DIR:-/etc/systemd/system}
UDEV_DIR=${COURTPIECE_UDEV_DIR:-/etc/udev/rules.d}
MODULES_DIR=${COURTPIECE_MODULES_DIR:-/etc/modules-load.d}
BIN_DIR=${COURTPIECE_BIN_DIR:-/usr/local/bin}
VENV=$PREFIX/venv
CONFIG=$ETC_DIR/table.toml
SERVICE_USER=courtpiece
KIOSK_USER=kiosk
STATE_DIR=/var/lib/courtpiece
DEVICE_GROUPS=(dialout gpio video i2c)
KIOSK_GROUPS=(video render input)

kiosk=no
camera=no
kiosk_lang=
disable_desktop=no
apt=yes
start=yes
dry_run=no

usage() {
	cat <<EOF
Usage: sudo $0 [--kiosk [--kiosk-lang CODE] [--disable-desktop]] [--camera] [--no-apt] [--no-start] [--dry-run]

  --kiosk            also install the table screen (cage + Chromium on tty1)
  --kiosk-lang CODE  the table screen's language at every start: en, ur or hi
                     (kept across reboots and later runs of this script)
  --disable-desktop  turn off the desktop's display manager, which would fight the
                     table screen for the display (without it the script stops)
  --camera           a camera table: Debian's python3-picamera2, and numpy 1.x in the
                     program's environment so the two agree (docs/camera.md)
  --no-apt    do not install Debian packages (they are already there)
  --no-start  enable the units but do not start them now
  --dry-run   print what would be done, change nothing
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--kiosk) kiosk=yes ;;
	--camera) camera=yes ;;
	--kiosk-lang)
		[ $# -ge 2 ] || {
			usage >&2
			exit 2
		}
		kiosk_lang=$2
		shift
		;;
	--disable-desktop) disable_desktop=yes ;;
	--no-apt) apt=no ;;
	--no-start) start=no ;;
	--dry-run) dry_run=yes ;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
	shift
done

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# Every change to the system goes through run, so --dry-run shows the whole plan.
run() {
	if [ "$dry_run" = yes ]; then
		printf '+'
		printf ' %q' "$@"
		printf '\n'
	else
		"$@"
	fi
}

check_system() {
	[ -f "$SRC/pyproject.toml" ] || die "run this from a checkout: $SRC has no pyproject.toml"
	if [ "$dry_run" = no ] && [ "$(id -u)" -ne 0 ]; then
		die "needs root: sudo $0"
	fi
	command -v systemctl >/dev/null || die "systemd is required"
	command -v python3 >/dev/null || die "python3 is required"
	python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
		die "Python 3.11 or newer is required (Raspberry Pi OS Bookworm has it)"
	if [ -n "$kiosk_lang" ]; then
		[ "$kiosk" = yes ] || die "--kiosk-lang goes with --kiosk"
		[ -f "$SRC/controller/web/static/i18n/$kiosk_lang.json" ] ||
			die "no table screen language '$kiosk_lang' (there are: $(languages))"
	fi
	check_display_manager
}

languages() {
	local f names=()
	for f in "$SRC"/controller/web/static/i18n/*.json; do
		names+=("$(basename "$f" .json)")
	done
	echo "${names[*]}"
}

# The desktop's display manager (lightdm on Raspberry Pi OS with desktop) takes the
# display at boot; the kiosk's cage would then fail or show behind it. Checked before
# anything is changed, so a refusal leaves the system as it was.
display_manager() {
	local alias="$UNIT_DIR/display-manager.service"
	[ -L "$alias" ] || [ -e "$alias" ] || return 1
	basename "$(readlink -f "$alias")"
}

check_display_manager() {
	[ "$kiosk" = yes ] || return 0
	local dm
	dm=$(display_manager) || return 0
	if [ "$disable_desktop" = no ]; then
		die "the desktop ($dm) is enabled and would take the screen from the table screen." \
			"Run again with --disable-desktop to turn it off, or use Raspberry Pi OS Lite."
	fi
}

# Is systemd running this system? Not in a chroot (an SD card image being prepared,
# bench/install_root.py): then there is no systemd, udev or kernel of this system to talk
# to, so the files go in, the units are enabled as links, and the first boot does the rest.
# (/run/systemd/system is systemd's own test; COURTPIECE_SYSTEMD=running|offline overrides
# it, for the tests' dry runs.)
systemd_running() {
	case ${COURTPIECE_SYSTEMD:-} in
	running) return 0 ;;
	offline) return 1 ;;
	esac
	[ -d /run/systemd/system ]
}

# apt knows the package (after apt-get update): Raspberry Pi OS has some Debian lacks.
has_package() { apt-cache show "$1" >/dev/null 2>&1; }

install_packages() {
	[ "$apt" = yes ] || return 0
	# First: a fresh image has empty package lists, and the choices below read them.
	run apt-get update
	# sudo: /usr/local/bin/courtpiece runs the program as the service's user through it.
	local packages=(python3-venv python3-pip i2c-tools espeak-ng sudo)
	# python3-lgpio is GPIO on the Pi 5; it comes from Raspberry Pi OS's own archive.
	if has_package python3-lgpio; then
		packages+=(python3-lgpio)
	else
		warn "no python3-lgpio in this system's archives (not Raspberry Pi OS?): the GPIO signals need it on a Pi 5"
	fi
	if [ "$camera" = yes ]; then
		# Picamera2 (and libcamera, simplejpeg) come from Raspberry Pi OS's archive only.
		if has_package python3-picamera2; then
			packages+=(python3-picamera2)
		else
			warn "no python3-picamera2 in this system's archives (not Raspberry Pi OS?): use a USB camera"
		fi
	fi
	if [ "$kiosk" = yes ]; then
		# cage runs the browser; fonts-noto-core draws Urdu (Nastaliq) and Hindi (Devanagari).
		# xwayland: Bookworm's cage (0.1.4) will not start without /usr/bin/Xwayland
		# ("Cannot create XWayland server"), though Chromium never uses it, and its
		# package does not pull it in (found by booting the kiosk in bench/install_root.py).
		packages+=(cage xwayland fonts-noto-core)
		# Raspberry Pi OS names its browser chromium-browser up to late 2024, chromium since.
		if has_package chromium; then
			packages+=(chromium)
		else
			packages+=(chromium-browser)
		fi
	fi
	say "Debian packages: ${packages[*]}"
	run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
}

enable_interfaces() {
	# I2C for the OLED, the UART for a PN532 (HSU) or RDM6300 without a login console on it.
	if command -v raspi-config >/dev/null; then
		say "enabling I2C and the serial port (a reboot makes them take effect)"
		run raspi-config nonint do_i2c 0
		run raspi-config nonint do_serial_hw 0
		run raspi-config nonint do_serial_cons 1
	else
		warn "raspi-config not found: enable I2C and the UART yourself if you use them"
	fi
}

create_groups_and_users() {
	local group
	for group in "${DEVICE_GROUPS[@]}"; do
		# The unit's SupplementaryGroups= fails the start if a group is missing.
		getent group "$group" >/dev/null || run groupadd --system "$group"
	done
	if id "$SERVICE_USER" >/dev/null 2>&1; then
		say "user $SERVICE_USER exists"
	else
		say "creating system user $SERVICE_USER"
		run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
			--shell /usr/sbin/nologin --comment "Court Piece Referee" "$SERVICE_USER"
	fi
	run usermod --append --groups "$(
		IFS=,
		echo "${DEVICE_GROUPS[*]}"
	)" "$SERVICE_USER"
}

install_program() {
	say "virtualenv $VENV"
	run install -d -m 0755 "$PREFIX"
	if [ ! -x "$VENV/bin/python" ]; then
		# System site packages: apt's python3-lgpio (GPIO on the Pi 5) is visible inside.
		run python3 -m venv --system-site-packages "$VENV"
	fi
	run "$VENV/bin/pip" install --disable-pip-version-check --upgrade pip
	# [hub]: mpremote, for `courtpiece hub flash`; here, not in Bookworm's system Python
	# (which refuses pip: it is "externally managed").
	# [camera]: numpy below 2. Debian's python3-picamera2 reaches the program through the
	# system site packages, and its simplejpeg is built against Bookworm's numpy 1.24:
	# pip's numpy 2 would come first on the path and break its import.
	local extras=oled,hub
	[ "$camera" = no ] || extras+=,camera
	run "$VENV/bin/pip" install --disable-pip-version-check --upgrade "${SRC}[$extras]"
	say "documentation in $PREFIX/docs"
	run install -d -m 0755 "$PREFIX/docs"
	# the guides the config template points to, read on the Pi itself
	run install -m 0644 "$SRC/docs/install.md" "$SRC/docs/gpio.md" "$SRC/docs/config.md" \
		"$SRC/docs/web.md" "$SRC/docs/camera.md" "$SRC/docs/club.md" "$SRC/docs/voice.md" \
		"$SRC/docs/readers.md" "$PREFIX/docs/"
	run install -m 0644 "$SRC/hardware/README.md" "$PREFIX/docs/hardware.md"
}

install_admin_command() {
	# `courtpiece` on the PATH for the organiser, running as the service's user.
	say "command $BIN_DIR/courtpiece (runs as $SERVICE_USER)"
	run install -m 0755 "$SRC/hardware/courtpiece-admin" "$BIN_DIR/courtpiece"
}

install_config() {
	run install -d -m 0755 "$ETC_DIR"
	if [ -e "$CONFIG" ]; then
		say "keeping existing $CONFIG"
		# Configs written before the dashboard faced the table's network listen on
		# 127.0.0.1, which phones cannot reach (docs/web.md, "On a club's network").
		if ! awk '/^[[:space:]]*\[/ { s = $1 } s == "[web]" && /^[[:space:]]*host[[:space:]]*=/ { f = 1 }
			END { exit !f }' "$CONFIG"; then
			warn "$CONFIG leaves [web] host at 127.0.0.1: phones cannot reach the dashboard." \
				"Add: [web] host = \"0.0.0.0\""
		fi
		# A PIN in a file every user can read is refused at start; keep an old config
		# working by making it readable to the service's group only (docs/install.md).
		if grep -Eq '^[[:space:]]*pin[[:space:]]*=' "$CONFIG"; then
			say "$CONFIG holds an admin PIN: readable by root and the courtpiece group only"
			run chgrp "$SERVICE_USER" "$CONFIG"
			run chmod 0640 "$CONFIG"
		fi
	else
		say "writing $CONFIG (edit it for this table)"
		run install -m 0644 "$SRC/hardware/table.toml" "$CONFIG"
	fi
}

install_hub_device() {
	# The reader hub as /dev/courtpiece-hub (the config's default port) whatever its
	# ttyACM number; cdc_acm loaded at every boot, before the referee starts, so the
	# unit's DeviceAllow=char-ttyACM resolves and a hub plugged in later works.
	say "udev rule: the reader hub (USB 2e8a:0005) appears as /dev/courtpiece-hub"
	run install -m 0644 "$SRC/hardware/99-courtpiece-hub.rules" "$UDEV_DIR/99-courtpiece-hub.rules"
	run install -m 0644 "$SRC/hardware/courtpiece-modules.conf" "$MODULES_DIR/courtpiece.conf"
	if ! systemd_running; then
		say "systemd is not running here: the rule and cdc_acm take effect at the first boot"
		return 0
	fi
	if command -v udevadm >/dev/null; then
		run udevadm control --reload-rules
		run udevadm trigger --subsystem-match=tty --action=add
	fi
	if ! run modprobe cdc_acm; then
		warn "could not load cdc_acm now; it loads at the next boot"
	fi
}

install_units() {
	say "systemd units in $UNIT_DIR"
	run install -m 0644 "$SRC/systemd/courtpiece.service" "$UNIT_DIR/courtpiece.service"
	local units=(courtpiece.service)
	if [ "$kiosk" = yes ]; then
		install_kiosk
		units+=(courtpiece-kiosk.service)
	fi
	if ! systemd_running; then
		say "systemd is not running here: the units are enabled and start at the next boot"
		run systemctl enable "${units[@]}"
		return 0
	fi
	run systemctl daemon-reload
	run systemctl enable "${units[@]}"
	if [ "$start" = yes ]; then
		run systemctl restart "${units[@]}"
	fi
}

install_kiosk() {
	if id "$KIOSK_USER" >/dev/null 2>&1; then
		say "user $KIOSK_USER exists"
	else
		say "creating user $KIOSK_USER for the table screen"
		run useradd --create-home --shell /usr/sbin/nologin --comment "Court Piece table screen" \
			"$KIOSK_USER"
	fi
	local group
	for group in "${KIOSK_GROUPS[@]}"; do
		getent group "$group" >/dev/null || run groupadd --system "$group"
	done
	run usermod --append --groups "$(
		IFS=,
		echo "${KIOSK_GROUPS[*]}"
	)" "$KIOSK_USER"
	run install -m 0644 "$SRC/systemd/courtpiece-kiosk.service" "$UNIT_DIR/courtpiece-kiosk.service"
	if [ ! -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-browser ]; then
		say "this system calls it chromium-browser: adding a drop-in for the kiosk unit"
		local dropin="$UNIT_DIR/courtpiece-kiosk.service.d"
		run install -d -m 0755 "$dropin"
		local exec_start
		exec_start=$(grep '^ExecStart=' "$SRC/systemd/courtpiece-kiosk.service")
		exec_start=${exec_start//\/usr\/bin\/chromium /\/usr\/bin\/chromium-browser }
		if [ "$dry_run" = yes ]; then
			printf '+ write %s/browser.conf\n' "$dropin"
		else
			printf '[Service]\nExecStart=\n%s\n' "$exec_start" >"$dropin/browser.conf"
		fi
	fi
	install_kiosk_language
	local dm
	if dm=$(display_manager); then
		# only with --disable-desktop: check_display_manager stopped the script otherwise
		say "turning off the desktop ($dm): the table screen owns the display"
		run systemctl disable "$dm"
	fi
	run systemctl set-default graphical.target
}

# The language as part of the kiosk's address: Chromium starts with a fresh profile each
# time (--incognito), so a language picked on the screen is forgotten at the next boot.
install_kiosk_language() {
	[ -n "$kiosk_lang" ] || return 0
	local dropin="$UNIT_DIR/courtpiece-kiosk.service.d"
	local url
	url=$(sed -n 's/^Environment=KIOSK_URL=//p' "$SRC/systemd/courtpiece-kiosk.service")
	say "table screen language: $kiosk_lang ($dropin/language.conf)"
	run install -d -m 0755 "$dropin"
	if [ "$dry_run" = yes ]; then
		printf '+ write %s/language.conf\n' "$dropin"
	else
		printf '[Service]\nEnvironment=KIOSK_URL=%s?lang=%s\n' "$url" "$kiosk_lang" >"$dropin/language.conf"
	fi
}


main() {
	if ! systemd_running; then
		# systemctl then only changes unit files (enable, set-default): it cannot always
		# tell it is in a chroot, and would try to reach a systemd that is not there.
		export SYSTEMD_OFFLINE=1
	fi
	check_system
	install_packages
	enable_interfaces
	create_groups_and_users
	install_program
	install_admin_command
	install_config
	install_hub_device
	install_units
	say "done. Dashboard: http://$(hostname).local:8000/  Logs: journalctl -u courtpiece -f"
	say "the admin PIN is shown once: on the table screen and in: journalctl -u courtpiece | grep 'admin PIN'"
	if [ "$kiosk" = yes ]; then
		say "the table screen starts on tty1 after the referee is ready (reboot once)"
	fi
}

main
