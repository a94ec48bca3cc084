"""What the commands draw on a terminal: the table of `century play` (`table`) and the
progress of long runs (`progress`)."""
