# Sourced by start.sh and build.sh: runs a long, quiet step and says every 20 s that it is still going.
# usage: with_progress "<what>" <command…>
with_progress() {
  local what=$1 start=$SECONDS
  shift
  "$@" &
  local pid=$!
  while ! wait_up_to 20 "$pid"; do
    printf '  … %s: %d min %02d s so far\n' "$what" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60))
  done
  wait "$pid"
}

# True once $2 has exited, false after $1 seconds of it still running.
wait_up_to() {
  local i
  for ((i = 0; i < $1 * 5; i++)); do
    kill -0 "$2" 2>/dev/null || return 0
    sleep 0.2
  done
  ! kill -0 "$2" 2>/dev/null
}
