#pragma once
// The parts of an iteration's time, described once: the id files use, the label people read, a
// short legend label for charts, the colour every chart gives it, and the TimeBreakdown member
// that holds it. Charts, tooltips, the CLI's text and JSON, the PDF report and the sweep CSV take
// their parts from here: files (the text and JSON breakdown, the sweep CSV, whose columns are
// stable) in this order, charts and tooltips by chart_rank.

#include <cstdint>
#include <span>
#include <string_view>

#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

struct TimePart {
    std::string_view id;      // key in `eval --json`'s time_s ("tp_comm")
    std::string_view column;  // the sweep CSV's and JSON's column ("tp_comm_s")
    std::string_view label;   // "Exposed TP comm"
    std::string_view legend;  // a chart legend's short form: "TP comm"
    std::uint32_t rgb;        // 0xRRGGBB: Okabe-Ito's colour-blind safe palette, two of Paul Tol's, two for a DLRM
    double TimeBreakdown::*seconds;
    std::uint8_t workloads;  // WorkloadMask (fields.hpp): 1 transformer, 2 DLRM, 3 both
    // Shown in a text breakdown only when it is not zero (or, for EP and CP, when the model or
    // strategy has them): parts most configurations do not have.
    bool optional;
    int chart_rank;  // charts and tooltips stack the parts in this order (communication side by side)

    [[nodiscard]] double of(const TimeBreakdown& t) const noexcept { return t.*seconds; }
    [[nodiscard]] bool for_workload(Workload w) const noexcept { return (workloads & (w == Workload::transformer ? 1 : 2)) != 0; }
};

// Every part, in file order.
[[nodiscard]] std::span<const TimePart> time_parts() noexcept;
// Every part, in chart order (chart_rank).
[[nodiscard]] std::span<const TimePart* const> time_parts_by_chart_rank() noexcept;
// A part's label for a workload: a DLRM's compute is its MLPs and interaction.
[[nodiscard]] std::string_view time_part_label(const TimePart& p, Workload w) noexcept;

}  // namespace comet
