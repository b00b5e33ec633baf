#!/bin/sh
# A deliberately broken UCI engine for the match runner's forfeit tests.
# $1 says how it breaks when asked for a move:
#   illegal - answers with a move that is never legal (a1-h8)
#   refuses - refuses every position with an error, then plays a1-h8
#   silent  - never answers
#   crash   - exits at once
#   garbage - writes a line that is no move at all, then nothing
#   flood   - writes info lines without end and never a move
mode="$1"
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
        garbage) echo "bestmove" ;;
        flood) while :; do echo "info depth 1 score cp 0"; done ;;
      esac ;;
  esac
done
