#include "comet/breakdown.hpp"

#include <array>

namespace comet {
namespace {

constexpr std::uint8_t transformer = 1, dlrm = 2, both = 3;

constexpr std::array<TimePart, 12> parts{{
    {"compute", "compute_s", "Compute", "Compute", 0x0072B2, &TimeBreakdown::compute_s, both, false, 0},
    {"pipeline_bubble", "bubble_s", "Pipeline bubble", "Pipeline bubble", 0x999999, &TimeBreakdown::bubble_s, transformer, false, 1},
    {"tp_comm", "tp_comm_s", "Exposed TP comm", "TP comm", 0xE69F00, &TimeBreakdown::tp_comm_s, transformer, false, 2},
    {"pp_comm", "pp_comm_s", "Exposed PP comm", "PP comm", 0x56B4E9, &TimeBreakdown::pp_comm_s, transformer, false, 3},
    {"dp_comm", "dp_comm_s", "Exposed DP comm", "DP comm", 0x009E73, &TimeBreakdown::dp_comm_s, both, false, 4},
    {"memory", "memory_s", "Exposed memory", "Memory", 0xCC79A7, &TimeBreakdown::memory_s, both, false, 7},
    {"optimizer", "optimizer_s", "Optimizer step", "Optimizer", 0xF0E442, &TimeBreakdown::optimizer_s, both, false, 8},
    {"other", "other_s", "Other", "Other", 0xD55E00, &TimeBreakdown::other_s, transformer, false, 9},
    {"ep_comm", "ep_comm_s", "Exposed EP all-to-all", "EP all-to-all", 0x882255, &TimeBreakdown::ep_comm_s, transformer, true, 5},
    {"cp_comm", "cp_comm_s", "Exposed CP ring exchange", "CP ring exchange", 0x332288, &TimeBreakdown::cp_comm_s, transformer, true, 6},
    {"lookup", "lookup_s", "Embedding lookups", "Embedding lookups", 0x663300, &TimeBreakdown::lookup_s, dlrm, false, 10},
    {"emb_comm", "emb_comm_s", "Exposed embedding all-to-all", "Embedding all-to-all", 0xFFBBCC, &TimeBreakdown::emb_comm_s, dlrm, false,
     11},
}};

}  // namespace

std::span<const TimePart> time_parts() noexcept { return parts; }

std::span<const TimePart* const> time_parts_by_chart_rank() noexcept {
    static const std::array<const TimePart*, parts.size()> ranked = [] {
        std::array<const TimePart*, parts.size()> out{};
        for (const TimePart& p : parts) out[static_cast<std::size_t>(p.chart_rank)] = &p;
        return out;
    }();
    return ranked;
}

std::string_view time_part_label(const TimePart& p, Workload w) noexcept {
    if (w == Workload::dlrm && p.seconds == &TimeBreakdown::compute_s) return "MLPs & interaction";
    return p.label;
}

}  // namespace comet
