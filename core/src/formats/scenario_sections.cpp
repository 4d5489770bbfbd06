#include "formats/scenario_sections.hpp"

#include <cmath>
#include <functional>
#include <span>
#include <vector>

#include "comet/check.hpp"
#include "comet/fields.hpp"
#include "comet/report.hpp"

namespace comet {
namespace sections {

using nlohmann::ordered_json;

// ---- reading -----------------------------------------------------------------------------

std::string allowed_by_rule(std::string_view path) {
    for (const FieldRule& r : field_rules())
        if (path == r.path) return r.allowed;
    return {};
}

static void derive_head_dim(ObjectReader& o, ModelSpec& m) {
    if (m.heads <= 0) return;  // reported by the range check
    if (m.hidden % m.heads != 0) {
        o.error("head_dim", "missing; required because model.hidden (" + std::to_string(m.hidden) + ") is not divisible by model.heads (" +
                                std::to_string(m.heads) + ")");
        return;
    }
    m.head_dim = m.hidden / m.heads;
}

namespace {

// Reads one key of the registry into `c`; true when it was present and stored.
bool read_leaf(ObjectReader& o, std::string_view key, const FieldDesc& f, Config& c, bool required) {
    switch (f.type) {
        case FieldType::integer:
            if (f.wide) {
                long long v = 0;
                if (!(required ? o.required_int(key, v) : o.optional_int(key, v))) return false;
                f.set(c, static_cast<double>(v));
            } else {
                int v = 0;
                if (!(required ? o.required_int(key, v) : o.optional_int(key, v))) return false;
                f.set(c, v);
            }
            return true;
        case FieldType::real: {
            double v = 0;
            if (!(required ? o.required_number(key, v) : o.optional_number(key, v))) return false;
            f.set(c, v);
            return true;
        }
        case FieldType::boolean: {
            bool v = false;
            if (!(required ? o.required_bool(key, v) : o.optional_bool(key, v))) return false;
            f.set(c, v ? 1.0 : 0.0);
            return true;
        }
        case FieldType::choice: {
            std::size_t v = 0;
            if (!(required ? o.required_choice(key, v, f.choices) : o.optional_choice(key, v, f.choices))) return false;
            f.set(c, static_cast<double>(v));
            return true;
        }
        case FieldType::list:
            break;  // the section's own reader
    }
    return false;
}

bool required_in(const FieldDesc& f, Workload w) noexcept {
    return f.presence == Presence::required || (f.presence == Presence::required_for_transformer && w == Workload::transformer);
}

// A key the section reads itself (derived defaults, lists); true when `own` handled it.
using OwnReader = std::function<bool(ObjectReader&, const FieldDesc&, std::string_view key)>;

// Reads the registry's fields (`fields`, whose paths start with a prefix of `prefix` characters)
// from `o`, in registry order; a run of fields under one nested key ("scale_up.") is read from
// that object, which is required when any of its fields is.
void read_fields(ObjectReader& o, std::span<const FieldDesc> fields, std::size_t prefix, Config& c, Workload w, const OwnReader& own) {
    for (std::size_t i = 0; i < fields.size();) {
        const std::string_view key = fields[i].path.substr(prefix);
        const std::size_t dot = key.find('.');
        if (dot == std::string_view::npos) {
            if (!(own && own(o, fields[i], key))) read_leaf(o, key, fields[i], c, required_in(fields[i], w));
            ++i;
            continue;
        }
        const std::string_view object = key.substr(0, dot);
        std::size_t end = i;
        bool required = false;
        while (end < fields.size() && fields[end].path.substr(prefix).starts_with(key.substr(0, dot + 1))) {
            required = required || required_in(fields[end], w);
            ++end;
        }
        const auto run = fields.subspan(i, end - i);
        auto read = [&](ObjectReader& inner) { read_fields(inner, run, prefix + dot + 1, c, w, own); };
        (required ? o.required_object(object, read) : o.optional_object(object, read));
        i = end;
    }
}

// Reads a section of a Config member (`part`) through a whole Config.
template <class Part>
void read_section(ObjectReader& o, std::string_view section, Part Config::*member, Part& part, Workload w = Workload::transformer,
                  const OwnReader& own = {}) {
    Config c;
    c.*member = part;
    read_fields(o, section_fields(section), section.size() + 1, c, w, own);
    part = c.*member;
}

}  // namespace

void read_model(ObjectReader& o, ModelSpec& m, Provenance& info, Derived& derived) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    bool hidden_ok = false, heads_ok = false;
    Config c;
    c.model = m;
    const OwnReader own = [&](ObjectReader& r, const FieldDesc& f, std::string_view key) {
        if (key == "hidden")
            hidden_ok = read_leaf(r, key, f, c, true);
        else if (key == "heads")
            heads_ok = read_leaf(r, key, f, c, true);
        else if (key == "kv_heads") {
            if (!read_leaf(r, key, f, c, false) && !r.has(key)) {
                c.model.kv_heads = c.model.heads;
                derived.kv_heads = true;
            }
        } else if (key == "head_dim") {
            if (!read_leaf(r, key, f, c, false) && !r.has(key)) {
                derived.head_dim = true;
                if (hidden_ok && heads_ok) derive_head_dim(r, c.model);
            }
        } else {
            return false;
        }
        return true;
    };
    read_fields(o, section_fields("model"), 6, c, Workload::transformer, own);
    m = c.model;
}

void read_node(ObjectReader& o, NodeSpec& n, Provenance& info, LegacyNodeSoftware* legacy) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    if (o.has("host_op_us")) {
        if (legacy == nullptr || !legacy->host_op_allowed) {
            o.allow("host_op_us");
            o.error("host_op_us",
                    "is the software's, not the node's, since scenario format 3: give it as software.host_op_us "
                    "(or name a software preset, presets/software/)");
        } else if (o.optional_number("host_op_us", legacy->host_op_us) &&
                   !(std::isfinite(legacy->host_op_us) && legacy->host_op_us >= 0 && legacy->host_op_us <= 1e4)) {
            o.error("host_op_us", "is " + format_printf("%g", legacy->host_op_us) + "; must be 0 to 10000 us per kernel");
        }
    }
    // The runtime's reserve and the allocator's margin: the node's until scenario format 4.
    struct MemoryKey {
        std::string_view key;
        std::optional<double> LegacyNodeMemory::*value;
        double max;
        const char* allowed;
    };
    for (const MemoryKey& k : {MemoryKey{"hbm_reserved_gib", &LegacyNodeMemory::hbm_reserved_gib, 1e6, "0 or more GiB (at most 1e6)"},
                               MemoryKey{"hbm_allocator_margin", &LegacyNodeMemory::hbm_allocator_margin, 0.5,
                                         "a fraction from 0 to 0.5 of hbm_capacity_gib"}}) {
        if (!o.has(k.key)) continue;
        if (legacy == nullptr || !legacy->memory_allowed) {
            o.allow(k.key);
            o.error(k.key, "is the software's, not the node's, since scenario format 4: give it as software." + std::string(k.key) +
                               " (or name a software preset, presets/software/)");
            continue;
        }
        double v = 0;
        if (!o.optional_number(k.key, v)) continue;
        if (!(std::isfinite(v) && v >= 0 && v <= k.max))
            o.reader().error(o.path_of(k.key) + " = " + format_printf("%g", v), std::string("must be ") + k.allowed);
        else
            legacy->memory.*k.value = v;
    }
    read_section(o, "node", &Config::node, n);
}

void read_software(ObjectReader& o, SoftwareSpec& sw, Provenance& info) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    read_section(o, "software", &Config::software, sw);
}

void read_training(ObjectReader& o, TrainingSpec& t) { read_section(o, "training", &Config::training, t); }

void read_strategy(ObjectReader& o, Strategy& s, Workload w) { read_section(o, "strategy", &Config::strategy, s, w); }

namespace {
// "an empty list", "a list of 33 items", or the value as describe_json_value() says it.
std::string list_text(const nlohmann::json& v) {
    if (!v.is_array()) return describe_json_value(v);
    return v.empty() ? "an empty list" : "a list of " + std::to_string(v.size()) + (v.size() == 1 ? " item" : " items");
}

// A list of integer widths ("bottom_mlp": [512, 256, 128]) into `widths`; false after an error.
bool read_widths(ObjectReader& o, std::string_view key, std::array<int, DlrmSpec::max_mlp_layers>& widths, int& layers, bool required) {
    const nlohmann::json* list = o.value(key);
    if (list == nullptr) {
        if (required) o.error(key, "missing (a list of 1 to 8 layer widths)");
        return !required;
    }
    const int max = DlrmSpec::max_mlp_layers;
    if (!list->is_array() || static_cast<int>(list->size()) > max || (required && list->empty())) {
        o.reader().error(o.path_of(key) + " = " + list_text(*list),
                         std::string("must be a list of ") + (required ? "1" : "0") + " to 8 layer widths");
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const nlohmann::json& v = (*list)[i];
        const std::string path = o.path_of(key) + "[" + std::to_string(i) + "]";
        const bool integral = v.is_number_integer() ||
                              (v.is_number_float() && std::isfinite(v.get<double>()) && std::floor(v.get<double>()) == v.get<double>());
        if (!integral || std::abs(v.get<double>()) > 2147483647.0) {
            o.reader().error(path + " = " + describe_json_value(v), "must be an integer width from 1 to 1e7");
            ok = false;
            continue;
        }
        widths[i] = static_cast<int>(v.get<double>());
    }
    if (ok) layers = static_cast<int>(list->size());
    return ok;
}

// One entry of "tables": {"count", "rows", "dim", "pooling"}; "rows" may be {"from", "to"}: the
// group's tables spread geometrically over that range, read as up to 8 groups of rows at the
// geometric midpoints of equal shares of the range.
void read_table_group(ObjectReader& t, std::vector<EmbeddingTableGroup>& out) {
    EmbeddingTableGroup g;
    g.count = 1;
    t.optional_int("count", g.count);
    t.required_int("dim", g.dim);
    t.optional_number("pooling", g.pooling);
    const nlohmann::json* rows = t.value("rows");
    if (rows == nullptr) {
        t.error("rows", "missing (a number of rows, or {\"from\": ..., \"to\": ...})");
        return;
    }
    if (!rows->is_object()) {
        if (t.optional_number("rows", g.rows)) out.push_back(g);
        return;
    }
    double from = 0, to = 0;
    bool read = false;
    t.required_object("rows", [&](ObjectReader& r) {
        const bool has_from = r.required_number("from", from);  // both read, so both are reported
        const bool has_to = r.required_number("to", to);
        read = has_from && has_to;
    });
    if (!read) return;
    if (!(from >= 1 && to >= from && to <= 1e13)) {
        t.reader().error(t.path_of("rows") + " = {from " + std::to_string(from) + ", to " + std::to_string(to) + "}",
                         "must spread from at least 1 row to at most 1e13, with to >= from");
        return;
    }
    if (g.count < 1) {  // reported by the range check on the group
        g.rows = from;
        out.push_back(g);
        return;
    }
    const int parts = std::min(g.count, 8);
    for (int i = 0; i < parts; ++i) {
        EmbeddingTableGroup part = g;
        part.count = g.count / parts + (i < g.count % parts ? 1 : 0);
        part.rows = std::round(from * std::pow(to / from, (i + 0.5) / parts));
        out.push_back(part);
    }
}
}  // namespace

static void read_tables(ObjectReader& o, DlrmSpec& d) {
    const nlohmann::json* tables = o.value("tables");
    if (tables == nullptr) {
        o.error("tables", "missing (a list of 1 to 32 table groups: {\"count\", \"rows\", \"dim\", \"pooling\"})");
        return;
    }
    if (!tables->is_array() || tables->empty() || tables->size() > static_cast<std::size_t>(DlrmSpec::max_table_groups)) {
        o.reader().error(o.path_of("tables") + " = " + list_text(*tables), "must be a list of 1 to 32 table groups");
        return;
    }
    std::vector<EmbeddingTableGroup> groups;
    for (std::size_t i = 0; i < tables->size(); ++i) {
        const nlohmann::json& item = (*tables)[i];
        const std::string path = o.path_of("tables") + "[" + std::to_string(i) + "]";
        if (!item.is_object()) {
            o.reader().error(path, "expected a table group {\"count\", \"rows\", \"dim\", \"pooling\"}, got " + describe_json_value(item));
            continue;
        }
        ObjectReader reader(o.reader(), item, path);
        read_table_group(reader, groups);
        reader.report_unknown_keys();
    }
    if (groups.size() > static_cast<std::size_t>(DlrmSpec::max_table_groups)) {
        o.reader().error(o.path_of("tables"), std::to_string(groups.size()) +
                                                  " table groups after spreading the row ranges; at most 32 (give fewer groups or "
                                                  "fewer tables per range)");
        return;
    }
    d.table_groups = static_cast<int>(groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i) d.tables[i] = groups[i];
}

void read_dlrm(ObjectReader& o, DlrmSpec& d, Provenance& info) {
    o.optional_string("name", info.name);
    o.optional_string("source", info.source);
    Config c;
    c.dlrm = d;
    const OwnReader lists = [&](ObjectReader& r, const FieldDesc& f, std::string_view key) {
        if (f.type != FieldType::list) return false;
        if (key == "tables")
            read_tables(r, c.dlrm);
        else if (key == "bottom_mlp")
            read_widths(r, key, c.dlrm.bottom_mlp, c.dlrm.bottom_layers, false);
        else if (key == "top_mlp")
            read_widths(r, key, c.dlrm.top_mlp, c.dlrm.top_layers, true);
        return true;
    };
    read_fields(o, section_fields("dlrm"), 5, c, Workload::dlrm, lists);
    d = c.dlrm;
}

// ---- writing -----------------------------------------------------------------------------

namespace {

ordered_json value_json(const FieldDesc& f, const Config& c) {
    const double v = f.get(c);
    switch (f.type) {
        case FieldType::integer:
            if (f.wide) return static_cast<long long>(std::llround(v));
            return static_cast<int>(std::llround(v));
        case FieldType::boolean:
            return v != 0;
        case FieldType::choice: {
            const auto i = static_cast<std::size_t>(std::llround(v));
            return std::string(i < f.choices.size() ? f.choices[i] : std::string_view("invalid"));
        }
        case FieldType::real:
        case FieldType::list:
            break;
    }
    return v;
}

ordered_json list_json(std::string_view key, const DlrmSpec& d) {
    ordered_json j = ordered_json::array();
    if (key == "tables") {
        for (int g = 0; g < d.table_groups && g < DlrmSpec::max_table_groups; ++g) {
            const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
            ordered_json tj;
            tj["count"] = t.count;
            tj["rows"] = t.rows;
            tj["dim"] = t.dim;
            tj["pooling"] = t.pooling;
            j.push_back(std::move(tj));
        }
        return j;
    }
    const bool bottom = key == "bottom_mlp";
    const auto& widths = bottom ? d.bottom_mlp : d.top_mlp;
    const int layers = bottom ? d.bottom_layers : d.top_layers;
    for (int i = 0; i < layers && i < DlrmSpec::max_mlp_layers; ++i) j.push_back(widths[static_cast<std::size_t>(i)]);
    return j;
}

// Whether a file of `c` writes the field (FieldDesc::write).
bool writes(const FieldDesc& f, const Config& c) noexcept {
    static const Config neutral;
    switch (f.write) {
        case WriteWhen::always:
            return true;
        case WriteWhen::not_default:
            return f.type == FieldType::list || f.get(c) != f.get(neutral);
        case WriteWhen::when:
            return f.written != nullptr && f.written(c);
    }
    return true;
}

// Puts a field's value into `j` at its key path below the section (nested keys make objects).
void put(ordered_json& j, const FieldDesc& f, std::size_t prefix, const Config& c) {
    ordered_json* at = &j;
    std::string_view key = f.path.substr(prefix);
    for (std::size_t dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.')) {
        at = &(*at)[std::string(key.substr(0, dot))];
        key = key.substr(dot + 1);
    }
    (*at)[std::string(key)] = f.type == FieldType::list ? list_json(key, c.dlrm) : value_json(f, c);
}

// A section's keys in registry order, each where FieldDesc::write says; with a provenance, its
// name and source first.
ordered_json section_json(std::string_view section, const Config& c, const Provenance* info) {
    ordered_json j;
    if (info != nullptr) {
        j["name"] = info->name;
        j["source"] = info->source;
    }
    for (const FieldDesc& f : section_fields(section))
        if (writes(f, c)) put(j, f, section.size() + 1, c);
    return j;
}

template <class Part>
Config with(Part Config::*member, const Part& part) {
    Config c;
    c.*member = part;
    return c;
}

}  // namespace

ordered_json dlrm_json(const DlrmSpec& d, const Provenance& info) { return section_json("dlrm", with(&Config::dlrm, d), &info); }
ordered_json model_json(const ModelSpec& m, const Provenance& info) { return section_json("model", with(&Config::model, m), &info); }
ordered_json node_json(const NodeSpec& n, const Provenance& info) { return section_json("node", with(&Config::node, n), &info); }
ordered_json training_json(const TrainingSpec& t) { return section_json("training", with(&Config::training, t), nullptr); }
ordered_json software_json(const SoftwareSpec& sw, const Provenance& info) {
    return section_json("software", with(&Config::software, sw), &info);
}

ordered_json strategy_json(const Strategy& s, Workload w) {
    const Config c = with(&Config::strategy, s);
    if (w == Workload::transformer) return section_json("strategy", c, nullptr);
    // A DLRM: dp, the overlap of the MLPs' all-reduce and the tables' sharding and placement;
    // every other key only where it differs from its neutral value.
    static const Config neutral;
    ordered_json j;
    const std::size_t prefix = std::string_view("strategy.").size();
    for (const FieldDesc& f : section_fields("strategy"))
        if (f.dlrm_always) put(j, f, prefix, c);
    for (const FieldDesc& f : section_fields("strategy"))
        if (!f.dlrm_always && f.get(c) != f.get(neutral)) put(j, f, prefix, c);
    return j;
}

}  // namespace sections

std::string_view to_string(Precision v) noexcept { return sections::name_of(sections::precision_names, v); }
std::string_view to_string(Recompute v) noexcept { return sections::name_of(sections::recompute_names, v); }
std::string_view to_string(AttentionKernel v) noexcept { return sections::name_of(sections::attention_names, v); }
std::string_view to_string(Optimizer v) noexcept { return sections::name_of(sections::optimizer_names, v); }
std::string_view to_string(GradDtype v) noexcept { return sections::name_of(sections::grad_dtype_names, v); }
std::string_view to_string(ExpandedAttach v) noexcept { return sections::name_of(sections::attach_names, v); }
std::string_view to_string(Workload v) noexcept { return sections::name_of(sections::workload_names, v); }
std::string_view to_string(EmbeddingSharding v) noexcept { return sections::name_of(sections::emb_sharding_names, v); }
std::string_view to_string(EmbeddingPlacement v) noexcept { return sections::name_of(sections::emb_placement_names, v); }
std::string_view to_string(EmbeddingStateTier v) noexcept { return sections::name_of(sections::emb_state_names, v); }

}  // namespace comet
