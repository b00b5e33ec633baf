#!/bin/sh
# A deliberately broken UCI engine for the match runner's forfeit tests.
# $1 says how it breaks when asked for a move:
#   illegal - answers with a move that is never legal (a1-h8)
#   refuses - refuses every position with an error, then plays a1-h8
#   silent  - never answers
#   crash   - exits at once
#   panics  - exits as a Rust program panicking does (a message on standard
#             error, status 101)
#   garbage - writes a line that is no move at all, then nothing
#   flood   - writes info lines without end and never a move
# or, as "$1 N ENGINE...", plays as ENGINE (a working engine's command, its
# input passed on) for N-1 moves of each game, then at its Nth move:
#   dies    - is killed (SIGKILL to its whole process group, ENGINE too)
#   hangs   - stops answering: passes nothing on, ENGINE waits for ever
# With BROKEN_ONCE set to a file name, it breaks only while that file does
# not exist, and makes it when it breaks: once in a match, engine restarts
# included.
mode="$1"
case "$mode" in
  dies|hangs)
    at="$2"
    shift 2
    n=0
    while read -r line; do
      case "$line" in
        ucinewgame*) n=0 ;;
        go*)
          n=$((n + 1))
          if [ "$n" -ge "$at" ] && ! { [ -n "$BROKEN_ONCE" ] && [ -e "$BROKEN_ONCE" ]; }; then
            [ -n "$BROKEN_ONCE" ] && : > "$BROKEN_ONCE"
            [ "$mode" = dies ] && kill -KILL 0
            # Keeps the pipe to ENGINE open (sleep inherits it).
            exec sleep 3600
          fi ;;
      esac
      printf '%s\n' "$line"
    done | "$@"
    exit ;;
esac
while read -r line; do
  case "$line" in
    uci) echo "id name broken-$mode"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
    position*) [ "$mode" = refuses ] && echo "info string error: move 9 'c3-d4': the game is over" ;;
    go*)
      case "$mode" in
        illegal|refuses) echo "bestmove a1-h8" ;;
        silent) : ;;
        crash) exit 3 ;;
        panics)
          echo "thread 'main' panicked at src/search.rs:1:1:" >&2
          echo "index out of bounds" >&2
          exit 101 ;;
        garbage) echo "bestmove" ;;
        flood) while :; do echo "info depth 1 score cp 0"; done ;;
      esac ;;
  esac
done
