// Reading measured per-op tables (presets/measurements/*.json): strict keys through JsonReader,
// and each row's cells checked against its column's rule with the value and what is allowed.
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "comet/op_table.hpp"
#include "formats/json_reader.hpp"

namespace comet::ops {
namespace {

using nlohmann::json;

enum class Cell { count, seconds, rate, kernel, flag, mib };

struct Column {
    std::string_view name;
    Cell rule;
};

constexpr long long max_dim = 1LL << 30;

std::string allowed(Cell rule) {
    switch (rule) {
        case Cell::count:
            return "must be a whole number from 1 to " + std::to_string(max_dim);
        case Cell::seconds:
            return "must be a time in seconds > 0";
        case Cell::rate:
            return "must be a number >= 0";
        case Cell::kernel:
            return "must be \"cudnn\" or \"flash2\"";
        case Cell::flag:
            return "must be 0 or 1";
        case Cell::mib:
            return "must be a size in MiB > 0";
    }
    return {};
}

// The cell's value as a double (kernel: 0 cudnn, 1 flash2), or an error recorded.
bool read_cell(ObjectReader& o, const std::string& path, const json& v, Cell rule, double& out) {
    const auto bad = [&] {
        o.reader().error(path + " = " + describe_json_value(v), allowed(rule));
        return false;
    };
    if (rule == Cell::kernel) {
        if (!v.is_string()) return bad();
        const auto& s = v.get_ref<const std::string&>();
        if (s == "cudnn") return out = 0, true;
        if (s == "flash2") return out = 1, true;
        return bad();
    }
    if (!v.is_number()) return bad();
    const double x = v.get<double>();
    if (!std::isfinite(x)) return bad();
    switch (rule) {
        case Cell::count:
            if (!(x >= 1 && x <= double(max_dim) && x == std::floor(x))) return bad();
            break;
        case Cell::seconds:
        case Cell::mib:
            if (!(x > 0)) return bad();
            break;
        case Cell::rate:
            if (!(x >= 0)) return bad();
            break;
        case Cell::flag:
            if (!(x == 0 || x == 1)) return bad();
            break;
        case Cell::kernel:
            break;
    }
    out = x;
    return true;
}

// {"columns": [...], "rows": [[...], ...]} with the columns exactly as listed; each row that reads
// cleanly goes to `row` as doubles. `extra` reads the table's other keys.
void read_table(ObjectReader& top, std::string_view key, const std::vector<Column>& columns,
                const std::function<void(const std::vector<double>&)>& row, const std::function<void(ObjectReader&)>& extra = {}) {
    top.optional_object(key, [&](ObjectReader& t) {
        if (extra) extra(t);
        std::string expected = "[";
        for (std::size_t i = 0; i < columns.size(); ++i) expected += (i ? ", \"" : "\"") + std::string(columns[i].name) + "\"";
        expected += "]";
        const json* cols = t.value("columns");
        if (!cols) {
            t.error("columns", "missing (required): " + expected);
        } else {
            bool same = cols->is_array() && cols->size() == columns.size();
            for (std::size_t i = 0; same && i < columns.size(); ++i)
                same = (*cols)[i].is_string() && (*cols)[i].get_ref<const std::string&>() == columns[i].name;
            if (!same) t.value_error("columns", "= " + describe_json_value(*cols) + ": must be " + expected);
        }
        const json* rows = t.value("rows");
        if (!rows) {
            t.error("rows", "missing (required): a list of rows of " + std::to_string(columns.size()) + " values");
            return;
        }
        if (!rows->is_array()) {
            t.value_error("rows", "= " + describe_json_value(*rows) + ": must be a list of rows");
            return;
        }
        if (rows->empty()) {
            t.error("rows", "is empty: at least one row is required");
            return;
        }
        const std::string base = t.path_of("rows");
        for (std::size_t r = 0; r < rows->size() && t.reader().error_budget_left(); ++r) {
            const json& cells = (*rows)[r];
            const std::string rp = base + "[" + std::to_string(r) + "]";
            if (!cells.is_array() || cells.size() != columns.size()) {
                t.reader().error(rp + " = " + describe_json_value(cells),
                                 "must be a list of " + std::to_string(columns.size()) + " values " + expected);
                continue;
            }
            std::vector<double> values(columns.size());
            bool ok = true;
            for (std::size_t c = 0; c < columns.size(); ++c)
                ok = read_cell(t, rp + "[" + std::to_string(c) + "] (" + std::string(columns[c].name) + ")", cells[c], columns[c].rule,
                               values[c]) &&
                     ok;
            if (ok) row(values);
        }
    });
}

long long to_ll(double v) { return static_cast<long long>(v); }  // a checked whole number

}  // namespace

Loaded<OpTable> read_op_table(std::string_view text, std::string label) {
    Loaded<OpTable> out;
    OpTable t;
    t.file = label;
    JsonReader r(std::move(label));
    const auto doc = r.parse(text);
    if (doc) {
        r.object(*doc, [&](ObjectReader& top) {
            top.optional_string("what", t.what);
            top.optional_string("how", t.how);
            top.required_string("device", t.device);
            std::string ignored;
            top.optional_string("torch", ignored);
            top.optional_string("cuda", ignored);
            const std::vector<Column> gemm{
                {"M", Cell::count}, {"N", Cell::count}, {"K", Cell::count}, {"s", Cell::seconds}, {"tflops", Cell::rate}};
            for (const auto& [key, rows] :
                 {std::pair<const char*, std::vector<GemmRow>*>{"gemm_bf16", &t.gemm_bf16}, {"gemm_fp8", &t.gemm_fp8}})
                read_table(top, key, gemm, [rows = rows](const std::vector<double>& v) {
                    rows->push_back(GemmRow{to_ll(v[0]), to_ll(v[1]), to_ll(v[2]), v[3]});
                });
            std::vector<Column> wgrad = gemm;
            wgrad[0].name = "M_tokens";
            read_table(top, "wgrad_bf16", wgrad, [&](const std::vector<double>& v) {
                t.wgrad_bf16.push_back(GemmRow{to_ll(v[0]), to_ll(v[1]), to_ll(v[2]), v[3]});
            });
            read_table(
                top, "attention",
                {{"kernel", Cell::kernel},
                 {"head_dim", Cell::count},
                 {"seq", Cell::count},
                 {"batch", Cell::count},
                 {"q_heads", Cell::count},
                 {"causal", Cell::flag},
                 {"fwd_s", Cell::seconds},
                 {"bwd_s", Cell::seconds},
                 {"fwd_tflops", Cell::rate},
                 {"bwd_tflops", Cell::rate}},
                [&](const std::vector<double>& v) {
                    AttentionRow a;
                    a.kernel = v[0] == 0 ? AttentionKernel::cudnn : AttentionKernel::flash2;
                    a.shape = AttentionShape{to_ll(v[3]), to_ll(v[4]), to_ll(v[2]), to_ll(v[1]), v[5] == 1};
                    a.fwd_s = v[6];
                    a.bwd_s = v[7];
                    t.attention.push_back(a);
                },
                [&](ObjectReader& a) {
                    std::string note;
                    a.optional_string("note", note);
                    if (a.optional_int("kv_heads", t.attention_kv_heads) && (t.attention_kv_heads < 1 || t.attention_kv_heads > max_dim))
                        a.value_error("kv_heads", "= " + std::to_string(t.attention_kv_heads) + ": must be a whole number from 1 to " +
                                                      std::to_string(max_dim));
                });
            read_table(top, "grouped_gemm",
                       {{"experts", Cell::count},
                        {"tokens_per_expert", Cell::count},
                        {"hidden", Cell::count},
                        {"up_width", Cell::count},
                        {"grouped_s", Cell::seconds},
                        {"grouped_tflops", Cell::rate},
                        {"per_expert_gemms_s", Cell::seconds},
                        {"per_expert_tflops", Cell::rate}},
                       [&](const std::vector<double>& v) {
                           t.grouped.push_back(GroupedRow{GroupedShape{to_ll(v[0]), to_ll(v[1]), to_ll(v[2]), to_ll(v[3])}, v[4], v[6]});
                       });
            read_table(top, "hbm_copy", {{"MiB", Cell::mib}, {"s", Cell::seconds}, {"GBps_read_plus_write", Cell::rate}},
                       [&](const std::vector<double>& v) {
                           t.hbm.push_back(HbmRow{v[0], v[1]});
                       });
            if (top.optional_number("kernel_gap_in_graph_us", t.kernel_gap_in_graph_us) &&
                !(t.kernel_gap_in_graph_us > 0 && std::isfinite(t.kernel_gap_in_graph_us)))
                top.value_error("kernel_gap_in_graph_us",
                                "= " + describe_json_value(*top.value("kernel_gap_in_graph_us")) + ": must be a time in us > 0");
            // Host issue times per eager op: not used by this fit (the host-bound pass is the step
            // model's); only its shape is checked.
            if (const json* host = top.value("host_issue_eager_autograd_us"); host && !host->is_object())
                top.value_error("host_issue_eager_autograd_us", "= " + describe_json_value(*host) + ": must be an object of ops");
            if (top.reader().ok() && t.gemm_bf16.empty() && t.gemm_fp8.empty() && t.wgrad_bf16.empty() && t.attention.empty() &&
                t.grouped.empty() && t.hbm.empty())
                top.reader().error(
                    "", "no table: at least one of gemm_bf16, gemm_fp8, wgrad_bf16, attention, grouped_gemm, hbm_copy is required");
        });
    }
    out.errors = r.take_errors();
    if (out.errors.empty()) out.value = std::move(t);
    return out;
}

Loaded<OpTable> load_op_table(const std::filesystem::path& file) {
    std::string text;
    if (std::string problem = read_json_file(file, text); !problem.empty()) {
        Loaded<OpTable> out;
        out.errors.push_back(file.string() + ": " + problem);
        return out;
    }
    return read_op_table(text, file.string());
}

Loaded<GpuDatasheet> datasheet_for(std::string_view device) {
    Loaded<GpuDatasheet> out;
    if (device.find("H200") != std::string_view::npos) {
        out.value = GpuDatasheet{989.4, 1978.9, 4800, 132};  // H200 SXM: dense BF16, FP8; HBM3e; SMs
        return out;
    }
    out.errors.push_back("device = " + quote_for_message(device) + ": no datasheet for it; the per-op fit knows \"NVIDIA H200\"");
    return out;
}

}  // namespace comet::ops
