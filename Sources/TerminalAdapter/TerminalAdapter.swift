// The ncurses adapter: reads keys and copies the rendered grid to the screen.
