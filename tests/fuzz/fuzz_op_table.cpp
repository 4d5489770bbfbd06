// libFuzzer target: measured per-op tables (read_op_table, presets/measurements/*.json). A table
// that reads has only positive, finite times and positive sizes; the default rate model and, for
// tables small enough for one iteration, the model fitted on the table give every row a finite,
// positive time or a reason, and the per-family summary counts every row once.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "comet/op_table.hpp"
#include "fuzz_common.hpp"

namespace {

constexpr std::size_t max_rows_fitted = 12;  // the fit searches every parameter's grid per row

std::size_t rows_of(const comet::ops::OpTable& t) {
    return t.gemm_bf16.size() + t.gemm_fp8.size() + t.wgrad_bf16.size() + t.attention.size() + t.grouped.size() + t.hbm.size();
}

void check(const comet::ops::OpRateModel& m, const comet::ops::OpTable& t, const char* which) {
    using namespace comet::ops;
    const auto rows = compare_op_table(m, t);
    if (rows.size() !=
        t.gemm_bf16.size() + t.gemm_fp8.size() + t.wgrad_bf16.size() + 2 * t.attention.size() + 2 * t.grouped.size() + t.hbm.size())
        comet::fuzz::fail("compare_op_table lost or added rows", which);
    for (const OpRowError& r : rows) {
        if (!(r.measured_s > 0) || !std::isfinite(r.measured_s)) comet::fuzz::fail("a row without a positive measured time", r.shape);
        if (!std::isfinite(r.model_s) || r.model_s < 0) comet::fuzz::fail("a model time that is negative or not finite", r.shape);
        if (!std::isfinite(r.error())) comet::fuzz::fail("a non-finite error", r.shape);
    }
    for (const OpFamilyError& f : summarize_op_errors(rows))
        if (f.count <= 0 || f.within_5 > f.within_10 || f.within_10 > f.within_15 || f.within_15 > f.within_25 || f.within_25 > f.count ||
            !std::isfinite(f.mean_abs) || !std::isfinite(f.mean_signed))
            comet::fuzz::fail("a family summary out of order", f.family);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace comet::ops;
    const comet::Loaded<OpTable> t = read_op_table(comet::fuzz::as_text(data, size), "fuzz-op-table.json");
    comet::fuzz::check_no_swallowed_exception(t.errors, "fuzz-op-table.json");
    if (!t.ok()) {
        if (t.errors.empty()) comet::fuzz::fail("no table and no error message");
        return 0;
    }
    if (rows_of(*t.value) == 0) comet::fuzz::fail("a table without rows was accepted");
    check(OpRateModel{}, *t.value, "default model");
    if (rows_of(*t.value) <= max_rows_fitted) check(fit_op_rates(*t.value, GpuDatasheet{}), *t.value, "fitted model");
    return 0;
}
