// Text, JSON and CSV of the FSDP balance (comet-cli fsdp; docs/cli.md).

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "comet/fsdp.hpp"
#include "comet/result.hpp"
#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/workload.hpp"

namespace comet {

namespace {

// Verdict of one point: "hidden", "exposed" or why the point cannot run.
std::string verdict(const FsdpPoint& p) {
    if (p.reason != Infeasible::none) return std::string(describe(p.reason));
    if (p.hidden()) return "hidden";
    if (p.max_tokens_hbm <= 0) return "exposed (not even one sequence fits in HBM)";
    return "exposed";
}

std::string_view verdict_id(const FsdpPoint& p) {
    if (p.reason != Infeasible::none) return "infeasible";
    return p.hidden() ? "hidden" : "exposed";
}

// A number for a table cell: "-" when not finite.
std::string cell(const char* format, double v) { return std::isfinite(v) ? format_printf(format, v) : std::string("-"); }

// The base strategy at ZeRO-3, without the dp and microbatch the table varies.
std::string strategy_text(const Config& c) {
    Strategy s = c.strategy;
    s.zero_stage = 3;
    const std::string full = format_strategy(s);
    std::string out;
    std::size_t start = 0;
    while (start < full.size()) {
        std::size_t end = full.find(' ', start);
        if (end == std::string::npos) end = full.size();
        const std::string_view word(full.data() + start, end - start);
        const bool varies = (word.starts_with("dp") || word.starts_with("mb")) && word.size() > 2 && word[2] >= '0' && word[2] <= '9';
        if (!varies && !word.empty()) out += (out.empty() ? "" : " ") + std::string(word);
        start = end + 1;
    }
    return out;
}

}  // namespace

std::string format_fsdp_text(const Scenario& sc, const std::vector<FsdpPoint>& points) {
    const Config& c = sc.config;
    std::string o;
    o += "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    o += "Model       " + (sc.model_info.name.empty() ? std::string("(unnamed)") : sc.model_info.name) + ", " +
         format_printf("%.1f", total_parameters(c.model) / 1e9) + " B parameters" +
         (c.model.is_moe() ? " (" + format_printf("%.1f", active_parameters(c.model) / 1e9) + " B active)" : std::string()) +
         ", sequence " + std::to_string(c.model.seq_len) + "\n";
    o += "Node        " + (sc.node_info.name.empty() ? std::string("(unnamed)") : sc.node_info.name) + " (" +
         std::to_string(c.node.accelerators) + " accelerators, " + format_printf("%g", c.node.hbm_capacity_gib) + " GiB HBM each)\n";
    o += "Strategy    " + strategy_text(c) + " (ZeRO-3 = FSDP); dp and microbatch per row\n\n";
    char buf[512];
    std::snprintf(buf, sizeof buf, "%9s %10s %14s %14s %10s %14s  %s\n", "dp", "GPUs", "tokens/GPU", "tokens/GPU", "max", "FSDP traffic",
                  "verdict");
    o += buf;
    std::snprintf(buf, sizeof buf, "%9s %10s %14s %14s %10s %14s\n", "", "", "to hide FSDP", "HBM allows", "microbatch", "per mb (ms)");
    o += buf;
    for (const FsdpPoint& p : points) {
        const bool runs = p.reason == Infeasible::none;
        std::snprintf(buf, sizeof buf, "%9d %10lld %14s %14s %10s %14s  %s\n", p.dp, p.gpus,
                      runs ? cell("%.0f", p.tokens_to_hide).c_str() : "-", runs ? cell("%.0f", p.max_tokens_hbm).c_str() : "-",
                      runs ? std::to_string(p.max_microbatch).c_str() : "-", runs ? cell("%.2f", p.fsdp_comm_s * 1e3).c_str() : "-",
                      verdict(p).c_str());
        o += buf;
    }
    o += "\ntokens/GPU = microbatch x seq_len / (tp x cp), per microbatch. hidden: HBM holds the activations of\n"
         "enough tokens for a microbatch's compute to cover its weight gathers and gradient reduce-scatter.\n";
    return o;
}

namespace {
nlohmann::ordered_json number(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr); }

}  // namespace

std::string format_fsdp_json(const Scenario& sc, const std::vector<FsdpPoint>& points) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["scenario"] = sc.name;
    j["model"] = sc.model_info.name;
    j["node"] = sc.node_info.name;
    j["strategy"] = strategy_text(sc.config);
    ordered_json rows = ordered_json::array();
    for (const FsdpPoint& p : points)
        rows.push_back({{"dp", p.dp},
                        {"gpus", p.gpus},
                        {"tokens_to_hide", number(p.tokens_to_hide)},
                        {"max_tokens_hbm", number(p.max_tokens_hbm)},
                        {"max_microbatch", p.max_microbatch},
                        {"fsdp_comm_s", number(p.fsdp_comm_s)},
                        {"compute_s_per_token", number(p.compute_s_per_token)},
                        {"hidden", p.hidden()},
                        {"verdict", verdict_id(p)},
                        {"reason", to_string(p.reason)},
                        {"reason_text", p.reason == Infeasible::none ? std::string() : std::string(describe(p.reason))}});
    j["points"] = std::move(rows);
    return j.dump(2) + "\n";
}

std::string format_fsdp_csv(const std::vector<FsdpPoint>& points) {
    std::string o = "dp,gpus,tokens_to_hide,max_tokens_hbm,max_microbatch,fsdp_comm_s,compute_s_per_token,hidden,verdict,reason\n";
    auto num = [](double v) { return std::isfinite(v) ? format_printf("%.10g", v) : std::string(); };
    for (const FsdpPoint& p : points)
        o += std::to_string(p.dp) + "," + std::to_string(p.gpus) + "," + num(p.tokens_to_hide) + "," + num(p.max_tokens_hbm) + "," +
             std::to_string(p.max_microbatch) + "," + num(p.fsdp_comm_s) + "," + num(p.compute_s_per_token) + "," +
             (p.hidden() ? "1" : "0") + "," + std::string(verdict_id(p)) + "," + std::string(to_string(p.reason)) + "\n";
    return o;
}

}  // namespace comet
