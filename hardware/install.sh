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
apt=yes
start=yes
dry_run=no

usage() {
	cat <<EOF
Usage: sudo $0 [--kiosk] [--no-apt] [--no-start] [--dry-run]

  --kiosk     also install the table screen (cage + Chromium on tty1)
  --no-apt    do not install Debian packages (they are already there)
  --no-start  enable the units but do not start them now
  --dry-run   print what would be done, change nothing
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--kiosk) kiosk=yes ;;
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
}

install_packages() {
	[ "$apt" = yes ] || return 0
	local packages=(python3-venv python3-pip python3-lgpio i2c-tools espeak-ng)
	if [ "$kiosk" = yes ]; then
		# cage runs the browser; fonts-noto-core draws Urdu (Nastaliq) and Hindi (Devanagari).
		packages+=(cage fonts-noto-core)
		# Raspberry Pi OS names its browser chromium-browser up to late 2024, chromium since.
		if apt-cache show chromium >/dev/null 2>&1; then
			packages+=(chromium)
		else
			packages+=(chromium-browser)
		fi
	fi
	say "Debian packages: ${packages[*]}"
	run apt-get update
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
	run "$VENV/bin/pip" install --disable-pip-version-check --upgrade "${SRC}[oled,hub]"
	say "documentation in $PREFIX/docs"
	run install -d -m 0755 "$PREFIX/docs"
	run install -m 0644 "$SRC/docs/install.md" "$SRC/docs/gpio.md" "$PREFIX/docs/"
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
	if systemctl is-enabled --quiet display-manager.service 2>/dev/null; then
		warn "a display manager is enabled; it competes with the kiosk for the screen." \
			"Disable it: sudo systemctl disable display-manager.service"
	fi
	run systemctl set-default graphical.target
}

main() {
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
