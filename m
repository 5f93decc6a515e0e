Command exited with non-zero status 127
1192
