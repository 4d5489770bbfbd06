#pragma once
// Sub-commands of comet-cli. Each returns the process exit code:
// 0 = a result was produced (feasible or not), 2 = bad input or usage (message on stderr),
// 130 = cancelled with Ctrl-C.

#include <span>
#include <string_view>

namespace comet::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;  // e.g. a validation run outside its bounds when asked to check
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_cancelled = 130;  // stopped by Ctrl-C (128 + SIGINT), nothing written

using Args = std::span<const std::string_view>;

int cmd_eval(Args args);
int cmd_validate(Args args);
int cmd_search(Args args);
int cmd_sweep(Args args);
int cmd_import(Args args);
int cmd_export(Args args);
int cmd_analyze(Args args);
int cmd_compare(Args args);
int cmd_fsdp(Args args);
int cmd_report(Args args);  // runs `comet-explorer --report` (the GUI build); without it says so and exits 2

}  // namespace comet::cli
