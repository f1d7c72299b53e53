// BoardLoop: the poll(2) event loop that drives an App on DRM + libinput (LOOP-1), recording and stats.
