#include "comet/sweep_io.hpp"

#include "comet/breakdown.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

#include "comet/report.hpp"
#include "comet/units.hpp"
#include "formats/json_reader.hpp"
#include "formats/scenario_internal.hpp"
#include "formats/scenario_sections.hpp"

namespace comet {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

enum class Scale : std::uint8_t { linear, log };
constexpr std::array<EnumName<Scale>, 2> scale_names{{{"linear", Scale::linear}, {"log", Scale::log}}};
constexpr std::array<EnumName<Objective>, 2> objective_names{{{"time", Objective::time}, {"mfu", Objective::mfu}}};

constexpr std::size_t max_sweep_cells = std::size_t{1} << 20;
constexpr long long max_microbatch_limit = 1000000000;

// Shortest text that reads back to the same double ("0.1", "1e+300", "4").
std::string number_text(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

// Range bounds for messages, like check.cpp: "0.001", "10000000", "1e+09".
std::string bound_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// Generated axis values rounded to 12 significant digits, so that a log axis from 6.25 to 100
// gives 12.5 rather than 12.499999999999998 (the difference is far below the model's accuracy).
double tidy(double v) {
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 12).ptr;
    double out = v;
    std::from_chars(buf, end, out);
    return out;
}

// ---- reading sweep files -----------------------------------------------------------------

std::string sweep_allowed_hint(std::string_view path) {
    constexpr std::string_view scenario_prefix = "scenario.";
    if (path.starts_with(scenario_prefix)) return scenario_allowed_hint(path.substr(scenario_prefix.size()));
    if (path == "x.steps" || path == "y.steps") return "an integer from 1 to " + std::to_string(max_sweep_steps);
    if (path == "search.top_k") return "an integer from 1 to " + std::to_string(max_sweep_top_k);
    if (path == "search.max_microbatch") return "an integer from 0 (no limit) to 1000000000";
    return {};
}

// "tp, pp, ..." for one kind of knob, or for all of them.
std::string knob_ids(std::optional<KnobKind> only = std::nullopt) {
    std::string out;
    for (const KnobInfo& k : all_knobs()) {
        if (only && k.kind != *only) continue;
        if (!out.empty()) out += ", ";
        out += k.id;
    }
    return out;
}

// "an integer from 1 to 65536 (tp: tensor parallelism)", "from 0.001 to 1e+07 GB/s (hbm_gbps: HBM bandwidth)".
std::string allowed_range(const KnobInfo& k) {
    std::string out;
    if (k.integer && k.min == 0 && k.max == 1)
        out = "0 or 1";
    else
        out = std::string(k.integer ? "an integer from " : "from ") + bound_text(k.min) + " to " + bound_text(k.max);
    if (!k.unit.empty()) {
        out += ' ';
        out += k.unit;
    }
    out += " (";
    out += k.id;
    out += ": ";
    out += k.label;
    out += ')';
    return out;
}

// Resolves a knob id or records "unknown knob (did you mean ...)" at `path`.
std::optional<Knob> read_knob_id(JsonReader& r, const std::string& path, const std::string& id) {
    if (const auto k = knob_from_id(id)) return k;
    std::vector<std::string> ids;
    for (const KnobInfo& k : all_knobs()) ids.emplace_back(k.id);
    const std::string where = path + " = " + quote_for_message(id);
    if (const auto near = nearest_name(id, ids))
        r.error(where, "unknown knob (did you mean \"" + *near + "\"?)");
    else
        r.error(where, "unknown knob (knobs: " + knob_ids() + ")");
    return std::nullopt;
}

// Checks one axis value against the knob's range; records an error at `path` otherwise.
bool check_value(JsonReader& r, const std::string& path, double v, const KnobInfo& k) {
    if (!std::isfinite(v) || v < k.min || v > k.max) {
        r.error(path + " = " + number_text(v), "out of range; must be " + allowed_range(k));
        return false;
    }
    if (k.integer && std::trunc(v) != v) {
        r.error(path + " = " + number_text(v), "not a whole number; must be " + allowed_range(k));
        return false;
    }
    return true;
}

class SweepParser {
public:
    SweepParser(JsonReader& r, std::filesystem::path base_dir) : r_(r), base_dir_(std::move(base_dir)) {}

    void read(ObjectReader& top, SweepFile& f) {
        if (!read_header(top)) {
            top.allow_all();
            return;
        }
        top.optional_string("name", f.name);
        top.optional_string("description", f.description);
        read_scenario_key(top, f);
        std::optional<Knob> x_knob, y_knob;
        top.required_object("x", [&](ObjectReader& o) { x_knob = read_axis(o, f.spec.x); });
        top.optional_object("y", [&](ObjectReader& o) {
            f.spec.y.emplace();
            y_knob = read_axis(o, *f.spec.y);
        });
        top.optional_object("search", [&](ObjectReader& o) { read_search(o, f.spec); });
        if (x_knob && y_knob && *x_knob == *y_knob)
            r_.error("y.knob = " + quote_for_message(knob_info(*y_knob).id),
                     "the same knob as x.knob; the two axes must move different knobs");
        if (r_.ok() && f.spec.y) {
            const std::size_t cells = f.spec.x.values.size() * f.spec.y->values.size();
            if (cells > max_sweep_cells)
                r_.error("y", "the axes give " + std::to_string(f.spec.x.values.size()) + " x " + std::to_string(f.spec.y->values.size()) +
                                  " = " + std::to_string(cells) + " cells; at most " + std::to_string(max_sweep_cells) + " are allowed");
        }
        // Load a named scenario file last, so that its messages follow the sweep file's own.
        if (!scenario_path_.empty()) load_named_scenario(f);
    }

    [[nodiscard]] std::vector<std::string> take_extra_errors() { return std::move(extra_errors_); }

private:
    bool read_header(ObjectReader& top) {
        bool readable = true;
        std::string format;
        if (top.required_string("format", format) && format != sweep_format_name) {
            r_.error("format = " + quote_for_message(format),
                     "must be \"" + std::string(sweep_format_name) + "\" (not a COMET Explorer sweep file)");
            readable = false;
        }
        int version = 0;
        if (top.required_int("version", version)) {
            const std::string current = std::to_string(sweep_format_version);
            if (version > sweep_format_version) {
                top.error("version", "file was written by a newer COMET Explorer (sweep format version " + std::to_string(version) +
                                         "); this build reads versions up to " + current);
                readable = false;
            } else if (version < 1) {
                r_.error("version = " + std::to_string(version), "must be a format version from 1 to " + current);
            }
        }
        return readable;
    }

    void read_scenario_key(ObjectReader& top, SweepFile& f) {
        const json* v = top.value("scenario");
        if (!v) {
            top.error("scenario", "missing (required): a path to a scenario file or a scenario object");
            return;
        }
        if (v->is_string()) {
            const auto& text = v->get_ref<const std::string&>();
            if (text.empty()) {
                top.error("scenario",
                          "is empty; must be a path to a scenario file (relative to the sweep file) "
                          "or a scenario object");
                return;
            }
            if (text.find('\0') != std::string::npos) {
                r_.error("scenario = " + quote_for_message(text), "contains a NUL character; not a file path");
                return;
            }
            scenario_text_ = text;
            const std::filesystem::path p(text);
            scenario_path_ = (p.is_absolute() || base_dir_.empty() ? p : base_dir_ / p).lexically_normal();
            return;
        }
        if (v->is_object()) {
            if (auto s = read_scenario_json(r_, *v, "scenario")) f.scenario = std::move(*s);
            return;
        }
        top.error("scenario", "expected a path to a scenario file or a scenario object, got " + describe_json_value(*v));
    }

    void load_named_scenario(SweepFile& f) {
        Loaded<Scenario> loaded = load_scenario_file(scenario_path_);
        if (loaded.ok()) {
            f.scenario = std::move(*loaded.value);
            f.scenario_file = scenario_path_;
            return;
        }
        r_.error("scenario = " + quote_for_message(scenario_text_), "cannot load the scenario file " + scenario_path_.string() + ":");
        // The loader's lines name the scenario file and the key path inside it.
        for (auto& e : loaded.errors) extra_errors_.push_back(std::move(e));
    }

    // Returns the knob when it is known (even if the values have errors).
    std::optional<Knob> read_axis(ObjectReader& o, Axis& axis) {
        std::string id;
        std::optional<Knob> knob;
        if (o.required_string("knob", id)) knob = read_knob_id(r_, o.path_of("knob"), id);
        if (knob) axis.knob = *knob;
        const KnobInfo* info = knob ? &knob_info(*knob) : nullptr;

        const bool has_values = o.has("values");
        const bool has_range = o.has("from") || o.has("to") || o.has("steps") || o.has("scale");
        if (has_values && has_range) {
            r_.error(o.path(), "give either \"values\" or \"from\", \"to\" and \"steps\" (with \"scale\"), not both");
            o.allow_all();
            return knob;
        }
        if (has_values)
            read_value_list(o, axis, info);
        else if (has_range)
            read_range(o, axis, info);
        else
            r_.error(o.path(), "missing the values: give \"values\": [...] or \"from\", \"to\" and \"steps\"");
        return knob;
    }

    void read_value_list(ObjectReader& o, Axis& axis, const KnobInfo* info) {
        const json* v = o.value("values");
        const std::string path = o.path_of("values");
        if (!v->is_array()) {
            r_.error(path, "expected an array of numbers, got " + describe_json_value(*v));
            return;
        }
        if (v->empty() || v->size() > static_cast<std::size_t>(max_sweep_steps)) {
            r_.error(path, "has " + std::to_string(v->size()) + " values; must have 1 to " + std::to_string(max_sweep_steps));
            return;
        }
        std::vector<double> values;
        values.reserve(v->size());
        for (std::size_t i = 0; i < v->size() && r_.error_budget_left(); ++i) {
            const json& e = (*v)[i];
            const std::string at = path + "[" + std::to_string(i) + "]";
            if (!e.is_number()) {
                r_.error(at, "expected a number, got " + describe_json_value(e));
                continue;
            }
            const double d = e.get<double>();
            if (info && !check_value(r_, at, d, *info)) continue;
            if (std::find(values.begin(), values.end(), d) != values.end()) {
                r_.error(at + " = " + number_text(d), "duplicate value; each value may appear once");
                continue;
            }
            values.push_back(d);
        }
        axis.values = std::move(values);
    }

    void read_range(ObjectReader& o, Axis& axis, const KnobInfo* info) {
        double from = 0, to = 0;
        int steps = 0;
        Scale scale = Scale::linear;
        bool ok = o.required_number("from", from);
        ok = o.required_number("to", to) && ok;
        if (o.required_int("steps", steps)) {
            if (steps < 1 || steps > max_sweep_steps) {
                r_.error(o.path_of("steps") + " = " + std::to_string(steps),
                         "must be an integer from 1 to " + std::to_string(max_sweep_steps));
                ok = false;
            }
        } else {
            ok = false;
        }
        if (o.has("scale") && !o.optional_enum("scale", scale, scale_names)) ok = false;
        if (!info || !ok) return;
        ok = check_value(r_, o.path_of("from"), from, *info);
        ok = check_value(r_, o.path_of("to"), to, *info) && ok;
        if (!ok) return;
        if (scale == Scale::log) {
            bool positive = true;
            for (const auto& [key, v] : {std::pair{"from", from}, std::pair{"to", to}}) {
                if (v > 0) continue;
                r_.error(o.path_of(key) + " = " + number_text(v), "must be > 0 for \"scale\": \"log\"");
                positive = false;
            }
            if (!positive) return;
        }
        std::vector<double> values = scale == Scale::log ? log_values(from, to, steps) : linear_values(from, to, steps);
        const double lo = std::min(from, to), hi = std::max(from, to);
        std::vector<double> kept;
        kept.reserve(values.size());
        for (double v : values) {
            v = std::clamp(tidy(v), lo, hi);  // guard against rounding past the ends
            if (info->integer) v = std::round(v);
            if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);  // whole numbers: no repeats
        }
        axis.values = std::move(kept);
    }

    void read_search(ObjectReader& o, SweepSpec& spec) {
        spec.search = true;
        o.optional_bool("enabled", spec.search);
        SearchOptions& opt = spec.search_options;
        o.optional_enum("objective", opt.objective, objective_names);
        if (const json* v = o.value("knobs")) read_search_knobs(o.path_of("knobs"), *v, opt.knobs);
        o.optional_bool("all_accelerators", opt.all_accelerators);
        if (o.optional_int("max_microbatch", opt.max_microbatch) && (opt.max_microbatch < 0 || opt.max_microbatch > max_microbatch_limit))
            r_.error(o.path_of("max_microbatch") + " = " + std::to_string(opt.max_microbatch),
                     "must be " + sweep_allowed_hint("search.max_microbatch"));
        if (o.optional_int("top_k", opt.top_k) && (opt.top_k < 1 || opt.top_k > max_sweep_top_k))
            r_.error(o.path_of("top_k") + " = " + std::to_string(opt.top_k), "must be " + sweep_allowed_hint("search.top_k"));
        o.optional_bool("prune", opt.prune);
    }

    void read_search_knobs(const std::string& path, const json& v, KnobSet& out) {
        if (!v.is_array()) {
            r_.error(path, "expected an array of strategy knob names, got " + describe_json_value(v));
            return;
        }
        if (v.empty()) {
            r_.error(path, "is empty; list at least one strategy knob (" + knob_ids(KnobKind::strategy) +
                               ") or leave the key out to search them all");
            return;
        }
        KnobSet set = 0;
        for (std::size_t i = 0; i < v.size() && r_.error_budget_left(); ++i) {
            const json& e = v[i];
            const std::string at = path + "[" + std::to_string(i) + "]";
            if (!e.is_string()) {
                r_.error(at, "expected a knob name (string), got " + describe_json_value(e));
                continue;
            }
            const auto& id = e.get_ref<const std::string&>();
            const auto k = read_knob_id(r_, at, id);
            if (!k) continue;
            if (knob_info(*k).kind != KnobKind::strategy) {
                r_.error(at + " = " + quote_for_message(id), "not a strategy knob; a search varies only " + knob_ids(KnobKind::strategy));
                continue;
            }
            if (set & knob_bit(*k)) {
                r_.error(at + " = " + quote_for_message(id), "listed twice");
                continue;
            }
            set |= knob_bit(*k);
        }
        out = set;
    }

    JsonReader& r_;
    std::filesystem::path base_dir_;
    std::string scenario_text_;
    std::filesystem::path scenario_path_;
    std::vector<std::string> extra_errors_;
};

// ---- result rows -------------------------------------------------------------------------

// The names of the enumerations a row holds, as files spell them.
inline constexpr const auto& names_of(Recompute) { return sections::recompute_names; }
inline constexpr const auto& names_of(EmbeddingSharding) { return sections::emb_sharding_names; }
inline constexpr const auto& names_of(EmbeddingPlacement) { return sections::emb_placement_names; }
inline constexpr const auto& names_of(EmbeddingStateTier) { return sections::emb_state_names; }
template <class E>
concept RowEnum = std::is_enum_v<E> && requires(E e) {
    names_of(e);
};

// Every column in order, for writing (const row) and reading (mutable row) alike.
template <class Row, class F>
void for_each_field(Row& row, bool two_axes, F&& f) {
    f("x_knob", row.x_knob);
    if (two_axes) f("y_knob", row.y_knob);
    f("x", row.x);
    if (two_axes) f("y", row.y);
    f("feasible", row.feasible);
    f("reason", row.reason);
    f("reason_text", row.reason_text);
    f("iteration_s", row.iteration_s);
    for (const TimePart& p : time_parts()) f(p.column, row.time.*p.seconds);
    f("tokens_per_s", row.tokens_per_s);
    f("mfu", row.mfu);
    f("model_tflops_per_gpu", row.model_tflops_per_gpu);
    f("hbm_used_gib", row.hbm_used_gib);
    f("hbm_capacity_gib", row.hbm_capacity_gib);
    f("expanded_used_gib", row.expanded_used_gib);
    f("tp", row.strategy.tp);
    f("pp", row.strategy.pp);
    f("dp", row.strategy.dp);
    f("microbatch", row.strategy.microbatch);
    f("interleave", row.strategy.interleave);
    f("recompute", row.strategy.recompute);
    f("sequence_parallel", row.strategy.sequence_parallel);
    f("zero_stage", row.strategy.zero_stage);
    f("offload_optimizer", row.strategy.offload_optimizer);
    f("offload_weights", row.strategy.offload_weights);
    f("offload_activations", row.strategy.offload_activations);
    f("dp_overlap", row.strategy.dp_overlap);
    f("tp_overlap", row.strategy.tp_overlap);
    f("cp", row.strategy.cp);
    f("ep", row.strategy.ep);
    f("etp", row.strategy.etp);
    f("ep_overlap", row.strategy.ep_overlap);
    f("zero_shard", row.strategy.zero_shard);
    f("emb_sharding", row.strategy.emb_sharding);
    f("emb_placement", row.strategy.emb_placement);
    f("emb_cache_fraction", row.strategy.emb_cache_fraction);
    f("emb_cache_hit_rate", row.strategy.emb_cache_hit_rate);
    f("emb_state", row.strategy.emb_state);
    f("runner_up", row.runner_up);
    f("runner_up_iteration_s", row.runner_up_iteration_s);
    f("evaluated", row.evaluated);
    f("infeasible", row.infeasible);
}

constexpr std::string_view runner_up_time_key = "runner_up_iteration_s";

bool is_two_axes(const SweepFile& sweep) { return sweep.spec.y.has_value(); }

std::string reason_text(const SweepFile&, const Result& r) { return explain(r); }

// ---- CSV ---------------------------------------------------------------------------------

void csv_field(std::string& out, std::string_view s) {
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += s;
        return;
    }
    out += '"';
    for (const char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

struct CsvCell {
    std::string& out;
    const SweepRow& row;
    bool first = true;

    void sep() {
        if (!first) out += ',';
        first = false;
    }
    void operator()(std::string_view name, double v) {
        sep();
        if (name == runner_up_time_key && row.runner_up.empty()) return;  // empty: no runner-up
        out += number_text(v);
    }
    void operator()(std::string_view, bool v) {
        sep();
        out += v ? "true" : "false";
    }
    void operator()(std::string_view, const std::string& v) {
        sep();
        csv_field(out, v);
    }
    void operator()(std::string_view, int v) {
        sep();
        out += std::to_string(v);
    }
    void operator()(std::string_view, std::uint64_t v) {
        sep();
        out += std::to_string(v);
    }
    template <RowEnum E>
    void operator()(std::string_view, E v) {
        sep();
        out += sections::name_of(names_of(v), v);
    }
};

// ---- JSON --------------------------------------------------------------------------------

struct JsonCell {
    ordered_json& out;
    const SweepRow& row;

    void operator()(std::string_view name, double v) {
        const std::string key(name);
        if ((name == runner_up_time_key && row.runner_up.empty()) || !std::isfinite(v))
            out[key] = nullptr;
        else
            out[key] = v;
    }
    void operator()(std::string_view name, bool v) { out[std::string(name)] = v; }
    void operator()(std::string_view name, const std::string& v) { out[std::string(name)] = v; }
    void operator()(std::string_view name, int v) { out[std::string(name)] = v; }
    void operator()(std::string_view name, std::uint64_t v) { out[std::string(name)] = v; }
    template <RowEnum E>
    void operator()(std::string_view name, E v) {
        out[std::string(name)] = sections::name_of(names_of(v), v);
    }
};

// Reads one cell object's fields; every column is required.
struct JsonCellReader {
    ObjectReader& o;

    void operator()(std::string_view name, double& v) {
        const json* j = o.value(name);
        if (!j) {
            o.error(name, "missing (required)");
        } else if (j->is_null()) {
            v = name == runner_up_time_key ? 0.0 : std::numeric_limits<double>::quiet_NaN();
        } else if (j->is_number()) {
            v = j->get<double>();
        } else {
            o.error(name, "expected a number or null, got " + describe_json_value(*j));
        }
    }
    void operator()(std::string_view name, bool& v) { o.required_bool(name, v); }
    void operator()(std::string_view name, std::string& v) { o.required_string(name, v); }
    void operator()(std::string_view name, int& v) { o.required_int(name, v); }
    void operator()(std::string_view name, std::uint64_t& v) {
        long long n = 0;
        if (!o.required_int(name, n)) return;
        if (n < 0)
            o.error(name, "must be 0 or more, got " + std::to_string(n));
        else
            v = static_cast<std::uint64_t>(n);
    }
    template <RowEnum E>
    void operator()(std::string_view name, E& v) {
        o.required_enum(name, v, names_of(v));
    }
};

template <class T>
Loaded<T> finish(JsonReader& r, std::optional<T> value, std::vector<std::string> extra = {}) {
    Loaded<T> out;
    out.errors = r.take_errors();
    for (auto& e : extra) out.errors.push_back(std::move(e));
    if (out.errors.empty()) out.value = std::move(value);
    return out;
}

}  // namespace

// ---- public API --------------------------------------------------------------------------

Loaded<SweepFile> parse_sweep(std::string_view text, std::string_view label, const std::filesystem::path& base_dir) {
    JsonReader r{std::string(label)};
    try {
        r.set_allowed_hint(sweep_allowed_hint);
        const std::optional<json> doc = r.parse(text);
        if (!doc) return finish<SweepFile>(r, std::nullopt);
        SweepFile f;
        SweepParser parser(r, base_dir);
        r.object(*doc, [&](ObjectReader& top) { parser.read(top, f); });
        return finish<SweepFile>(r, std::move(f), parser.take_extra_errors());
    } catch (const std::exception& e) {  // allocation failure on hostile input
        r.error("", std::string("could not be read: ") + e.what());
        return finish<SweepFile>(r, std::nullopt);
    }
}

Loaded<SweepFile> load_sweep_file(const std::filesystem::path& file) {
    std::string text;
    if (std::string problem = read_json_file(file, text); !problem.empty()) {
        Loaded<SweepFile> out;
        out.errors.push_back(file.string() + ": " + problem);
        return out;
    }
    return parse_sweep(text, file.string(), file.parent_path());
}

std::vector<std::string_view> sweep_columns(bool two_axes) {
    std::vector<std::string_view> names;
    const SweepRow row;
    for_each_field(row, two_axes, [&](std::string_view name, const auto&) { names.push_back(name); });
    return names;
}

std::vector<SweepRow> sweep_rows(const SweepFile& sweep, const SweepResult& result) {
    std::vector<SweepRow> rows;
    rows.reserve(result.cells.size());
    const std::string x_knob(knob_info(sweep.spec.x.knob).id);
    const std::string y_knob = sweep.spec.y ? std::string(knob_info(sweep.spec.y->knob).id) : std::string();
    for (const SweepCell& c : result.cells) {
        const Result& r = c.result;
        SweepRow row;
        row.x_knob = x_knob;
        row.y_knob = y_knob;
        row.x = c.x;
        row.y = sweep.spec.y ? c.y : 0.0;
        row.feasible = r.feasible;
        row.reason = std::string(to_string(r.reason));
        row.reason_text = r.feasible ? std::string() : reason_text(sweep, r);
        row.iteration_s = r.iteration_s;
        row.time = r.time;
        row.tokens_per_s = r.tokens_per_s;
        row.mfu = r.mfu;
        row.model_tflops_per_gpu = r.model_tflops_per_gpu;
        row.hbm_used_gib = units::bytes_to_gib(r.hbm.used_bytes());
        row.hbm_capacity_gib = units::bytes_to_gib(r.hbm.capacity_bytes);
        row.expanded_used_gib = units::bytes_to_gib(r.expanded.used_bytes());
        row.strategy = c.strategy;
        row.strategy.pp_scatter_gather = Strategy{}.pp_scatter_gather;  // not written
        if (c.has_runner_up) {
            row.runner_up = format_strategy(c.runner_up_strategy, sweep.scenario.config.workload);
            row.runner_up_iteration_s = c.runner_up_iteration_s;
        }
        row.evaluated = c.evaluated;
        row.infeasible = c.infeasible;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string sweep_to_csv(const SweepFile& sweep, const SweepResult& result) {
    const bool two = is_two_axes(sweep);
    std::string out;
    bool first = true;
    for (const auto name : sweep_columns(two)) {
        if (!first) out += ',';
        first = false;
        out += name;
    }
    out += "\r\n";
    for (const SweepRow& row : sweep_rows(sweep, result)) {
        CsvCell cell{out, row};
        for_each_field(row, two, cell);
        out += "\r\n";
    }
    return out;
}

std::string sweep_to_json(const SweepFile& sweep, const SweepResult& result) {
    const bool two = is_two_axes(sweep);
    ordered_json j;
    j["format"] = sweep_result_format_name;
    j["version"] = sweep_result_format_version;
    j["name"] = sweep.name;
    j["description"] = sweep.description;
    j["scenario"] = sweep.scenario.name;
    j["scenario_file"] = sweep.scenario_file.string();
    j["x_knob"] = knob_info(sweep.spec.x.knob).id;
    j["y_knob"] = two ? std::string(knob_info(sweep.spec.y->knob).id) : std::string();
    j["nx"] = result.nx;
    j["ny"] = result.ny;
    j["search"] = sweep.spec.search;
    ordered_json cells = ordered_json::array();
    for (const SweepRow& row : sweep_rows(sweep, result)) {
        ordered_json c = ordered_json::object();
        JsonCell cell{c, row};
        for_each_field(row, two, cell);
        cells.push_back(std::move(c));
    }
    j["cells"] = std::move(cells);
    return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

Loaded<std::vector<SweepRow>> read_sweep_json(std::string_view text, std::string_view label) {
    JsonReader r{std::string(label)};
    try {
        const std::optional<json> doc = r.parse(text);
        if (!doc) return finish<std::vector<SweepRow>>(r, std::nullopt);
        std::vector<SweepRow> rows;
        r.object(*doc, [&](ObjectReader& top) {
            std::string format;
            if (top.required_string("format", format) && format != sweep_result_format_name) {
                r.error("format = " + quote_for_message(format),
                        "must be \"" + std::string(sweep_result_format_name) + "\" (not sweep results)");
                top.allow_all();
                return;
            }
            int version = 0;
            if (top.required_int("version", version) && (version < 1 || version > sweep_result_format_version)) {
                r.error("version = " + std::to_string(version),
                        "must be a format version from 1 to " + std::to_string(sweep_result_format_version));
                top.allow_all();
                return;
            }
            std::string ignored;
            top.optional_string("name", ignored);
            top.optional_string("description", ignored);
            top.optional_string("scenario", ignored);
            top.optional_string("scenario_file", ignored);
            std::string x_knob, y_knob;
            top.required_string("x_knob", x_knob);
            top.optional_string("y_knob", y_knob);
            int nx = 0, ny = 0;
            top.required_int("nx", nx);
            top.required_int("ny", ny);
            bool searched = false;
            top.optional_bool("search", searched);
            const json* cells = top.value("cells");
            if (!cells) {
                top.error("cells", "missing (required)");
                return;
            }
            if (!cells->is_array()) {
                top.error("cells", "expected an array of cell objects, got " + describe_json_value(*cells));
                return;
            }
            if (nx < 0 || ny < 0 || static_cast<std::uint64_t>(nx) * static_cast<std::uint64_t>(ny) != cells->size())
                r.error("cells",
                        "has " + std::to_string(cells->size()) + " cells; nx x ny = " + std::to_string(nx) + " x " + std::to_string(ny));
            const bool two = !y_knob.empty();
            rows.reserve(cells->size());
            for (std::size_t i = 0; i < cells->size() && r.error_budget_left(); ++i) {
                const json& c = (*cells)[i];
                const std::string path = "cells[" + std::to_string(i) + "]";
                if (!c.is_object()) {
                    r.error(path, "expected an object, got " + describe_json_value(c));
                    continue;
                }
                SweepRow row;
                ObjectReader o(r, c, path);
                JsonCellReader cell{o};
                for_each_field(row, two, cell);
                o.report_unknown_keys();
                rows.push_back(std::move(row));
            }
        });
        return finish<std::vector<SweepRow>>(r, std::move(rows));
    } catch (const std::exception& e) {
        r.error("", std::string("could not be read: ") + e.what());
        return finish<std::vector<SweepRow>>(r, std::nullopt);
    }
}

}  // namespace comet
