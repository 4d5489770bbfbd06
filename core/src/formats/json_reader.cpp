#include "formats/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace comet {

using nlohmann::json;

namespace {

constexpr std::size_t max_shown_chars = 40;
constexpr std::size_t max_suggest_length = 64;  // edit distance is quadratic: skip long words

bool is_plain_key(std::string_view key) {
    if (key.empty() || key.size() > max_suggest_length) return false;
    return std::all_of(key.begin(), key.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '-'; });
}

// Cuts at most `n` bytes without splitting a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, std::size_t n) {
    if (s.size() <= n) return s;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return s.substr(0, n);
}

// Replaces bytes that are not valid UTF-8 (parser messages quote raw input).
std::string printable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool valid = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        if (valid && c >= 0x20 && c != 0x7F) {
            out.append(s.substr(i, len));
            i += len;
        } else {
            out += '?';
            ++i;
        }
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string join(std::span<const std::string_view> names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += ", ";
        out += names[i];
    }
    return out;
}

std::string join(std::span<const std::string> names) {
    std::vector<std::string_view> views(names.begin(), names.end());
    return join(views);
}

// nlohmann's messages start with "[json.exception.parse_error.101] ".
std::string without_exception_id(std::string_view what) {
    if (what.starts_with("[json.exception.")) {
        if (const auto end = what.find("] "); end != std::string_view::npos) what.remove_prefix(end + 2);
    }
    return printable(what);
}

// Builds the DOM like nlohmann's own parser, but stops at the depth limit and on duplicate
// keys (which nlohmann would silently resolve to the last value).
class StrictDomBuilder final : public nlohmann::json_sax<json> {
public:
    explicit StrictDomBuilder(json& root) : root_(root) {}

    [[nodiscard]] const std::string& problem_path() const noexcept { return problem_path_; }
    [[nodiscard]] const std::string& problem() const noexcept { return problem_; }

    bool null() override { return scalar(nullptr); }
    bool boolean(bool v) override { return scalar(v); }
    bool number_integer(number_integer_t v) override { return scalar(v); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(v); }
    bool number_float(number_float_t v, const string_t&) override { return scalar(v); }
    bool string(string_t& v) override { return scalar(std::move(v)); }
    bool binary(binary_t& v) override { return scalar(json::binary(std::move(v))); }
    bool start_object(std::size_t) override { return open(json::value_t::object); }
    bool start_array(std::size_t) override { return open(json::value_t::array); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& k) override {
        if (stack_.back().value->contains(k)) return fail(join_key_path(stack_.back().path, k), "duplicate key");
        key_ = std::move(k);
        return true;
    }

    bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& ex) override {
        return fail("", "not valid JSON: " + without_exception_id(ex.what()) + " (byte " + std::to_string(byte) + ")");
    }

private:
    struct Frame {
        json* value;
        std::string path;
    };

    std::string child_path() const {
        if (stack_.empty()) return {};
        const Frame& f = stack_.back();
        if (f.value->is_array()) return f.path + "[" + std::to_string(f.value->size()) + "]";
        return join_key_path(f.path, key_);
    }

    bool scalar(json&& v) {
        add(std::move(v));
        return true;
    }

    json* add(json&& v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        json& parent = *stack_.back().value;
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        json& slot = parent[key_];
        slot = std::move(v);
        return &slot;
    }

    bool open(json::value_t type) {
        if (stack_.size() >= static_cast<std::size_t>(max_json_depth))
            return fail("", "is nested deeper than " + std::to_string(max_json_depth) + " levels");
        std::string path = child_path();
        stack_.push_back({add(json(type)), std::move(path)});
        return true;
    }

    bool close() {
        stack_.pop_back();
        return true;
    }

    bool fail(std::string path, std::string problem) {
        problem_path_ = std::move(path);
        problem_ = std::move(problem);
        return false;
    }

    json& root_;
    std::vector<Frame> stack_;
    std::string key_;
    std::string problem_path_;
    std::string problem_;
};

std::string too_large(std::uintmax_t bytes) {
    return "is too large (" + std::to_string(bytes) + " bytes; the limit is " + std::to_string(max_json_bytes >> 20) + " MiB)";
}

std::string whole_text_problem(std::string_view text) {
    if (text.empty()) return "is empty (expected a JSON object)";
    if (text.size() > max_json_bytes) return too_large(text.size());
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return "contains only whitespace (expected a JSON object)";
    return {};
}

std::string errno_text(int err) { return std::generic_category().message(err); }

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    [[nodiscard]] int get() const noexcept { return fd_; }

private:
    int fd_;
};

std::string read_all(int fd, std::string& text) {
    std::vector<char> buffer(std::size_t{1} << 16);
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return "cannot read: " + errno_text(errno);
        if (n == 0) return {};
        if (text.size() + static_cast<std::size_t>(n) > max_json_bytes)
            return "is too large (more than " + std::to_string(max_json_bytes >> 20) + " MiB)";
        text.append(buffer.data(), static_cast<std::size_t>(n));
    }
}

enum class IntegerFit { fits, not_integer, out_of_range };

IntegerFit fit_integer(const json& v, long long min, long long max, long long& out) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(max) || (min > 0 && u < static_cast<std::uint64_t>(min))) return IntegerFit::out_of_range;
        out = static_cast<long long>(u);
        return IntegerFit::fits;
    }
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i < min || i > max) return IntegerFit::out_of_range;
        out = i;
        return IntegerFit::fits;
    }
    if (!v.is_number_float()) return IntegerFit::not_integer;
    const double d = v.get<double>();
    if (std::trunc(d) != d) return IntegerFit::not_integer;
    // Compare as doubles before converting: converting an out-of-range double is undefined.
    // 2^63 itself is excluded because double(LLONG_MAX) rounds up to it.
    if (d < static_cast<double>(min) || d > static_cast<double>(max) || d >= 9223372036854775808.0) return IntegerFit::out_of_range;
    out = static_cast<long long>(d);
    return IntegerFit::fits;
}

}  // namespace

std::string read_json_file(const std::filesystem::path& file, std::string& text) {
    text.clear();
    // O_NONBLOCK only for open(): a FIFO without a writer must not hang the program.
    const FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) return "cannot open: " + errno_text(errno);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return "cannot open: " + errno_text(errno);
    if (S_ISDIR(st.st_mode)) return "cannot open: " + errno_text(EISDIR);
    if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) > max_json_bytes)
        return too_large(static_cast<std::uintmax_t>(st.st_size));
    if (const int flags = ::fcntl(fd.get(), F_GETFL); flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
    return read_all(fd.get(), text);
}

std::string quote_for_message(std::string_view s) {
    const std::string_view head = utf8_prefix(s, max_shown_chars);
    std::string out = json(std::string(head)).dump(-1, ' ', false, json::error_handler_t::replace);
    if (head.size() < s.size()) out.insert(out.size() - 1, "...");
    return out;
}

std::string describe_json_value(const json& v) {
    switch (v.type()) {
        case json::value_t::string:
            return "string " + quote_for_message(v.get_ref<const std::string&>());
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::binary:
            return "binary data";
        case json::value_t::discarded:
            return "nothing";
        default:
            return v.dump();  // null, boolean, numbers (shortest round-trip form)
    }
}

std::string join_key_path(std::string_view parent, std::string_view key) {
    std::string out(parent);
    if (!out.empty()) out += '.';
    if (is_plain_key(key))
        out += key;
    else
        out += quote_for_message(key);
    return out;
}

std::optional<std::string> nearest_name(std::string_view word, std::span<const std::string> candidates) {
    if (word.size() > max_suggest_length) return std::nullopt;
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    for (const auto& c : candidates) {
        const std::size_t d = edit_distance(word, c);
        const std::size_t limit = std::min<std::size_t>(c.size() >= 5 ? 2 : 1, c.size() / 2);
        if (d <= limit && (!best || d < best_distance)) {
            best = c;
            best_distance = d;
        }
    }
    return best;
}

// ---- JsonReader --------------------------------------------------------------------------

JsonReader::JsonReader(std::string label, std::size_t max_errors)
    : label_(std::move(label)), max_errors_(std::max<std::size_t>(max_errors, 1)) {}

std::optional<json> JsonReader::parse(std::string_view text) {
    if (const std::string problem = whole_text_problem(text); !problem.empty()) {
        error("", problem);
        return std::nullopt;
    }
    try {
        json root;
        StrictDomBuilder builder(root);
        if (json::sax_parse(text.begin(), text.end(), &builder)) return root;
        error(builder.problem_path(), builder.problem().empty() ? "not valid JSON" : builder.problem());
    } catch (const std::exception& e) {  // allocation failure; the parser itself reports via the builder
        error("", std::string("could not be parsed: ") + e.what());
    }
    return std::nullopt;
}

bool JsonReader::object(const json& doc, const Section& read) {
    if (!doc.is_object()) {
        error("", "expected a JSON object at the top level, got " + describe_json_value(doc));
        return false;
    }
    ObjectReader top(*this, doc, "");
    read(top);
    top.report_unknown_keys();
    return true;
}

void JsonReader::error(std::string_view path, std::string_view problem) {
    if (!error_budget_left()) {
        ++suppressed_;
        return;
    }
    std::string line = label_;
    line += ": ";
    if (!path.empty()) {
        line += path;
        line += ": ";
    }
    line += problem;
    errors_.push_back(std::move(line));
}

std::string JsonReader::allowed_at(std::string_view path) const { return hint_ ? hint_(path) : std::string(); }

std::vector<std::string> JsonReader::take_errors() {
    std::vector<std::string> out = std::move(errors_);
    if (suppressed_ > 0)
        out.push_back(label_ + ": " + std::to_string(suppressed_) + " more error" + (suppressed_ == 1 ? "" : "s") + " not shown");
    errors_.clear();
    suppressed_ = 0;
    return out;
}

// ---- ObjectReader ------------------------------------------------------------------------

ObjectReader::ObjectReader(JsonReader& reader, const json& object, std::string path)
    : reader_(reader), object_(object), path_(std::move(path)) {}

std::string ObjectReader::path_of(std::string_view key) const { return join_key_path(path_, key); }

void ObjectReader::error(std::string_view key, std::string_view problem) { reader_.error(path_of(key), problem); }

bool ObjectReader::has(std::string_view key) const { return object_.find(key) != object_.end(); }

void ObjectReader::allow(std::string_view key) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
}

void ObjectReader::allow_all() {
    for (const auto& [key, v] : object_.items()) allow(key);
}

void ObjectReader::value_error(std::string_view key, const std::string& text) {
    const std::size_t colon = text.find(": ");
    if (text.starts_with("= ") && colon != std::string::npos)
        reader().error(path_of(key) + " " + text.substr(0, colon), text.substr(colon + 2));
    else
        error(key, text);
}

const json* ObjectReader::value(std::string_view key) {
    allow(key);
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
}

const json* ObjectReader::lookup(std::string_view key, bool required) {
    const json* v = value(key);
    if (!v && required) error(key, "missing (required)");
    return v;
}

bool ObjectReader::read_int(std::string_view key, long long& out, long long min, long long max, bool required) {
    const json* v = lookup(key, required);
    if (!v) return false;
    switch (fit_integer(*v, min, max, out)) {
        case IntegerFit::fits:
            return true;
        case IntegerFit::not_integer:
            error(key, "expected an integer, got " + describe_json_value(*v));
            return false;
        case IntegerFit::out_of_range:
            break;
    }
    std::string problem = "expected an integer, got " + describe_json_value(*v) + " (out of range)";
    if (const std::string allowed = reader_.allowed_at(path_of(key)); !allowed.empty()) problem += "; must be " + allowed;
    error(key, problem);
    return false;
}

bool ObjectReader::read_number(std::string_view key, double& out, bool required) {
    const json* v = lookup(key, required);
    if (!v) return false;
    if (!v->is_number()) {
        error(key, "expected a number, got " + describe_json_value(*v));
        return false;
    }
    out = v->get<double>();
    return true;
}

bool ObjectReader::read_bool(std::string_view key, bool& out, bool required) {
    const json* v = lookup(key, required);
    if (!v) return false;
    if (!v->is_boolean()) {
        error(key, "expected true or false, got " + describe_json_value(*v));
        return false;
    }
    out = v->get<bool>();
    return true;
}

bool ObjectReader::read_string(std::string_view key, std::string& out, bool required) {
    const json* v = lookup(key, required);
    if (!v) return false;
    if (!v->is_string()) {
        error(key, "expected a string, got " + describe_json_value(*v));
        return false;
    }
    out = v->get<std::string>();
    return true;
}

std::optional<std::size_t> ObjectReader::read_choice(std::string_view key, std::span<const std::string_view> names, bool required) {
    const json* v = lookup(key, required);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
        error(key, "expected a string (one of " + join(names) + "), got " + describe_json_value(*v));
        return std::nullopt;
    }
    const auto& s = v->get_ref<const std::string&>();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == s) return i;
    reader_.error(path_of(key) + " = " + quote_for_message(s), "must be one of " + join(names));
    return std::nullopt;
}

bool ObjectReader::nested(std::string_view key, const JsonReader::Section& read, bool required) {
    const json* v = lookup(key, required);
    if (!v) return false;
    if (!v->is_object()) {
        error(key, "expected an object, got " + describe_json_value(*v));
        return false;
    }
    ObjectReader inner(reader_, *v, path_of(key));
    read(inner);
    inner.report_unknown_keys();
    return true;
}

void ObjectReader::report_unknown_keys() {
    for (const auto& [key, v] : object_.items()) {
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        if (!reader_.error_budget_left()) {
            reader_.error(path_of(key), "unknown key");  // only counted
            continue;
        }
        if (const auto near = nearest_name(key, known_))
            error(key, "unknown key (did you mean \"" + *near + "\"?)");
        else
            error(key, "unknown key (allowed keys: " + join(known_) + ")");
    }
}

}  // namespace comet
