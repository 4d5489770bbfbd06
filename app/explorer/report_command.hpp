#pragma once
// `comet-explorer --report ARGS...`: the PDF report without a window (report_command.cpp).

namespace comet::cli {

// Runs the report on the arguments after `--report` (argv[0] is the first of them) and returns
// the exit status: 0 written, 1 failure, 2 bad input or usage, 130 cancelled with Ctrl-C.
int run_report(int argc, char** argv);

}  // namespace comet::cli
