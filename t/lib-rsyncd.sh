# t/lib-rsyncd.sh: an rsync daemon on 127.0.0.1 for the transport tests.
# Source it after test-lib.sh, at the top level of the script (the
# daemon runs in the background until the script ends).
#
# Module "stores" serves srv/ and runs dircache-receive as its pre-xfer
# exec (the setup the README gives); module "plain" serves plain/ and
# runs nothing.  Sets URL and PLAIN_URL.

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop_daemon() {
	if [ -n "${daemon_pid:-}" ]; then
		kill "$daemon_pid" 2>/dev/null
		wait "$daemon_pid" 2>/dev/null
		daemon_pid=
	fi
}

# start_daemon: start it, wait until it answers (fails after 10 s a
# try).  free_port's port is only free when it looks: another process
# may bind it first.  Then our daemon dies, or another script's daemon
# answers in its place (its module list lacks our trash directory, the
# comment of ours): start again on another port.
start_daemon() {
	mkdir -p srv plain &&
	cat >rsyncd.conf <<-EOF &&
	use chroot = no
	uid = $(id -u)
	gid = $(id -g)
	log file = $TRASH_DIRECTORY/rsyncd.log
	[stores]
	path = $TRASH_DIRECTORY/srv
	comment = $TRASH_DIRECTORY
	read only = no
	pre-xfer exec = $TOP/dircache-receive --rsyncd
	[plain]
	path = $TRASH_DIRECTORY/plain
	read only = no
	EOF
	_try=0
	while test $_try -lt 5; do
		_try=$((_try + 1))
		port=$(free_port) || return 1
		# A PATH without the tools: dircache-receive finds its own.
		env PATH=/usr/bin:/bin rsync --daemon --no-detach --address=127.0.0.1 --port="$port" \
			--config="$TRASH_DIRECTORY/rsyncd.conf" 2>/dev/null &
		daemon_pid=$!
		trap 'stop_daemon' EXIT
		URL=rsync://127.0.0.1:$port/stores
		PLAIN_URL=rsync://127.0.0.1:$port/plain
		i=0
		while kill -0 "$daemon_pid" 2>/dev/null && test $i -lt 100; do
			if rsync "rsync://127.0.0.1:$port/" 2>/dev/null |
			   awk -F '\t' -v d="$TRASH_DIRECTORY" \
				'$2 == d { f = 1 } END { exit !f }'; then
				return 0
			fi
			i=$((i + 1))
			sleep 0.1
		done
		stop_daemon
	done
	return 1
}

# A stand-in for ssh: "ssh host command..." runs the command here, from
# $TRASH_DIRECTORY/box (the remote account's home).
make_fake_ssh() {
	mkdir -p box &&
	cat >fake-ssh <<-EOF &&
	#!/bin/sh
	shift
	cd "$TRASH_DIRECTORY/box" && exec sh -c "\$*"
	EOF
	chmod +x fake-ssh
}

# fscks DIR: the store DIR passes fsck-cache --strict and git fsck
# --strict, and no quarantine or lock is left in it.
fscks() {
	GIT_DIR=$1 fsck-cache --strict >/dev/null &&
	GIT_DIR=$1 git fsck --strict --no-dangling >/dev/null &&
	test -z "$(find "$1" -name "*.lock" -o -name "incoming-*")"
}
