// AppContract: what an app and the devices agree on, apart from the loop that drives them: the
// App protocol and its settings, input events and scripts, the display and remote contracts,
// the app's timers, speech and the process's log.
