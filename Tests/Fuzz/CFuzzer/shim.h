// libFuzzer's entry for a program with its own main (LLVM 13 and later). Defined only when
// Tests/Fuzz/run.sh links libclang_rt.fuzzer_no_main; glide-fuzz calls it only when built with
// -DGLIDE_FUZZ.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
