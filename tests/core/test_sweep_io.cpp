// Sweep files: every axis form, scenario by path or embedded, every documented error, hostile
// input; and the CSV / JSON writers with their round trip.
#include <QtTest>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/breakdown.hpp"
#include "comet/sweep_io.hpp"
#include "comet/units.hpp"

using namespace comet;
namespace fs = std::filesystem;

namespace {

QString label() { return QStringLiteral("sweep.json"); }  // a file name for the messages

fs::path source_dir() { return fs::path(COMET_SOURCE_DIR); }
fs::path default_scenario_path() { return source_dir() / "presets" / "scenarios" / "default.comet.json"; }

std::string default_scenario_text() {
    QFile f(QString::fromStdString(default_scenario_path().string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

// A sweep document around `body` (the keys after the header), with the default scenario by path.
QByteArray sweep_text(const QByteArray& body, const QByteArray& scenario = {}) {
    const QByteArray sc =
        scenario.isEmpty() ? QByteArray("\"") + QByteArray::fromStdString(default_scenario_path().string()) + "\"" : scenario;
    QByteArray out = R"({ "format": "comet-sweep", "version": 1, "scenario": )" + sc;
    if (!body.isEmpty()) out += ", " + body;
    return out + " }";
}

Loaded<SweepFile> parse(const QByteArray& text, const fs::path& base = {}) {
    return parse_sweep(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), label().toStdString(), base);
}

Loaded<SweepFile> parse_body(const QByteArray& body) { return parse(sweep_text(body)); }

QStringList lines_of(const std::vector<std::string>& errors) {
    QStringList out;
    for (const auto& e : errors) out << QString::fromStdString(e);
    return out;
}

QString joined(const std::vector<std::string>& errors) { return lines_of(errors).join('\n'); }

// Every failure is reported, never thrown; every line is bounded and names a file.
template <class T>
void expect_failure(const Loaded<T>& l, bool all_lines_from_label = true) {
    QVERIFY(!l.ok());
    QVERIFY(!l.value.has_value());
    QVERIFY(!l.errors.empty());
    for (const auto& line : lines_of(l.errors)) {
        if (all_lines_from_label) QVERIFY2(line.startsWith(label() + ": "), qPrintable(line));
        QVERIFY2(!line.contains('\n'), qPrintable(line));
        QVERIFY2(line.size() < 2000, "message is not bounded");
    }
}

// Parses `body` and expects exactly one error line: `expected` after "sweep.json: ".
void expect_error(const QByteArray& body, const QString& expected) {
    const Loaded<SweepFile> l = parse_body(body);
    expect_failure(l);
    QCOMPARE(joined(l.errors), label() + ": " + expected);
}

// Parses `body` and expects an error line starting with `start` after "sweep.json: ".
void expect_error_starting(const QByteArray& body, const QString& start) {
    const Loaded<SweepFile> l = parse_body(body);
    expect_failure(l);
    bool found = false;
    for (const auto& line : lines_of(l.errors)) found = found || line.startsWith(label() + ": " + start);
    QVERIFY2(found, qPrintable("no line starts with '" + start + "' in:\n" + joined(l.errors)));
}

SweepFile parse_ok(const QByteArray& body) {
    const Loaded<SweepFile> l = parse_body(body);
    if (!l.ok()) qWarning("%s", l.error_text().c_str());
    return l.ok() ? *l.value : SweepFile{};
}

QByteArray number(double v) { return QByteArray::number(v, 'g', 17); }

bool write_file(const QString& path, const QByteArray& data) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// ---- results for the writers -------------------------------------------------------------

Result feasible_result(double scale) {
    Result r;
    r.feasible = true;
    r.time = {0.1 + 0.2 * scale, 1.0 / 3.0, 1e-300, 0.0, 2.5e-3 * scale, 0.0, 0.017, 1e-9};
    r.iteration_s = r.time.total();
    r.tokens_per_s = 123456.789 * scale;
    r.mfu = 0.5123456789012345;
    r.model_tflops_per_gpu = 159.99999999999997;
    r.hbm = {units::gib_to_bytes(10.1), units::gib_to_bytes(20), 3.3e9, 7e9, 1.5e9, units::gib_to_bytes(80)};
    r.expanded = {0, 0, 5e9, 0, 0, units::gib_to_bytes(512)};
    return r;
}

Result infeasible_result() {
    Result r;
    r.feasible = false;
    r.reason = Infeasible::hbm_capacity;
    r.detail_a = units::gib_to_bytes(93.25);
    r.detail_b = units::gib_to_bytes(78);
    r.iteration_s = 0;
    return r;
}

SweepFile two_axis_sweep() {
    SweepFile f;
    f.name = "writer test";
    f.description = "two axes, \"quoted\", with, commas";
    f.scenario.name = "Scenario, \"name\"";
    f.scenario_file = "/somewhere/x.comet.json";
    f.spec.x = {Knob::hbm_gbps, {1000, 2000.5}};
    f.spec.y = Axis{Knob::tp, {1, 8}};
    f.spec.search = true;
    return f;
}

SweepResult two_axis_result() {
    SweepResult r;
    r.nx = 2;
    r.ny = 2;
    const double xs[] = {1000, 2000.5};
    const double ys[] = {1, 8};
    for (int iy = 0; iy < 2; ++iy)
        for (int ix = 0; ix < 2; ++ix) {
            SweepCell c;
            c.x = xs[ix];
            c.y = ys[iy];
            c.strategy = {static_cast<int>(ys[iy]), 4, 3, 2, 2, Recompute::selective, true, 1, true, false, true, false, true, true};
            c.evaluated = 1000 + static_cast<std::uint64_t>(ix) + 10 * static_cast<std::uint64_t>(iy);
            c.infeasible = 17;
            if (ix == 1 && iy == 0) {
                c.result = infeasible_result();
            } else {
                c.result = feasible_result(1.0 + ix + 2 * iy);
                if (iy == 1) {
                    c.has_runner_up = true;
                    c.runner_up_strategy = {8, 8, 1, 1, 1, Recompute::full, false, 0, false, false, false, true, false, true};
                    c.runner_up_iteration_s = c.result.iteration_s * (1 + 1e-15);
                }
            }
            r.cells.push_back(c);
        }
    return r;
}

#define SAME(field)                                                                              \
    QVERIFY2(a.field == b.field || (std::isnan(double(a.field)) && std::isnan(double(b.field))), \
             qPrintable(QStringLiteral(#field ": %1 vs %2").arg(double(a.field), 0, 'g', 17).arg(double(b.field), 0, 'g', 17)))
#define SAME_STR(field) QCOMPARE(QString::fromStdString(a.field), QString::fromStdString(b.field))

void compare_rows(const SweepRow& a, const SweepRow& b) {
    SAME_STR(x_knob);
    SAME_STR(y_knob);
    SAME(x);
    SAME(y);
    SAME(feasible);
    SAME_STR(reason);
    SAME_STR(reason_text);
    SAME(iteration_s);
    for (const TimePart& p : time_parts())
        QVERIFY2(p.of(a.time) == p.of(b.time), qPrintable(QString::fromUtf8(p.column.data(), static_cast<qsizetype>(p.column.size()))));
    SAME(tokens_per_s);
    SAME(mfu);
    SAME(model_tflops_per_gpu);
    SAME(hbm_used_gib);
    SAME(hbm_capacity_gib);
    SAME(expanded_used_gib);
    SAME(strategy.tp);
    SAME(strategy.pp);
    SAME(strategy.dp);
    SAME(strategy.microbatch);
    SAME(strategy.interleave);
    QCOMPARE(static_cast<int>(a.strategy.recompute), static_cast<int>(b.strategy.recompute));
    SAME(strategy.sequence_parallel);
    SAME(strategy.zero_stage);
    SAME(strategy.offload_optimizer);
    SAME(strategy.offload_weights);
    SAME(strategy.offload_activations);
    SAME(strategy.dp_overlap);
    SAME(strategy.tp_overlap);
    SAME_STR(runner_up);
    SAME(runner_up_iteration_s);
    SAME(evaluated);
    SAME(infeasible);
}

// RFC 4180 reader for the test: records of fields, quotes doubled inside quoted fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text, bool& ok) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false, was_quoted = false;
    ok = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            if (!field.empty() || was_quoted) ok = false;  // a quote inside an unquoted field
            quoted = was_quoted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
            was_quoted = false;
        } else if (c == '\r') {
            if (i + 1 >= text.size() || text[i + 1] != '\n') ok = false;  // bare CR
        } else if (c == '\n') {
            if (i == 0 || text[i - 1] != '\r') ok = false;  // records end with CRLF
            record.push_back(std::move(field));
            field.clear();
            was_quoted = false;
            records.push_back(std::move(record));
            record.clear();
        } else {
            field += c;
        }
    }
    if (quoted || !field.empty() || !record.empty()) ok = false;  // unterminated last record
    return records;
}

double to_double(const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && !s.empty() ? v : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

// Slots are defined out of line: moc mis-reads some raw string literals (R"(", ...)") inside a
// class body and then finds no class at all.
class TestSweepIo : public QObject {
    Q_OBJECT

private slots:
    // ---- axis forms ----
    void linearRange();
    void scaleDefaultsToLinear();
    void logRange();
    void singleStepIsFrom();
    void integerKnobRangeIsWholeAndDistinct();
    void valueList();
    void everyKnobIdIsAccepted();
    void railOnlyKnobSetsTheFabric();
    void nameAndDescription();
    // ---- search section ----
    void searchDefaults();
    void searchEveryKey();
    void searchDisabled();
    // ---- scenario ----
    void relativeScenarioPathResolvesAgainstTheSweepFile();
    void parseSweepResolvesAgainstBaseDir();
    void embeddedScenario();
    void shippedExampleLoads();
    // ---- errors ----
    void unknownKnobSuggests();
    void unknownKnobListsKnobs();
    void valueOutOfKnobRange();
    void nonIntegerForIntegerKnob();
    void logScaleNeedsPositiveBounds();
    void stepsOutOfRange();
    void sameKnobOnBothAxes();
    void searchKnobsMustBeStrategyKnobs();
    void searchOptionErrors();
    void axisShapeErrors();
    void tooManyCells();
    void unknownTopLevelKey();
    void badScenarioPath();
    void scenarioFileWithErrorsReportsItsErrors();
    void scenarioValueShapes();
    void embeddedScenarioErrorsCarryThePrefix();
    void wrongFormatOrVersion();
    // ---- hostile input ----
    void hostileInput();
    void fileOver16MiBIsRefused();
    void missingFile();
    void randomBytesNeverCrash();
    // ---- writers ----
    void columnsAreStable();
    void rowsCarryTheCells();
    void jsonRoundTrip();
    void jsonOneAxis();
    void readSweepJsonErrors();
    void csvHasHeaderAndOneLinePerCell();
    void csvOneAxisHasNoYColumns();
    void csvUsesShortestExactNumbers();
};

void TestSweepIo::linearRange() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 8, "scale": "linear" })");
    QCOMPARE(static_cast<int>(f.spec.x.knob), static_cast<int>(Knob::hbm_gbps));
    QCOMPARE(f.spec.x.values, (std::vector<double>{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000}));
    QVERIFY(!f.spec.y.has_value());
    QVERIFY(!f.spec.search);
    QCOMPARE(f.scenario.config.cluster.nodes, 384);
}

void TestSweepIo::scaleDefaultsToLinear() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "from": 8000, "to": 2000, "steps": 4 })");
    QCOMPARE(f.spec.x.values, (std::vector<double>{8000, 6000, 4000, 2000}));
}

void TestSweepIo::logRange() {
    const SweepFile f = parse_ok(R"("x": { "knob": "scale_out_gbps", "from": 6.25, "to": 100, "steps": 5, "scale": "log" })");
    const auto& v = f.spec.x.values;
    QCOMPARE(v.size(), std::size_t{5});
    QCOMPARE(v.front(), 6.25);
    QCOMPARE(v.back(), 100.0);
    for (std::size_t i = 1; i < v.size(); ++i) QVERIFY(std::fabs(v[i] / v[i - 1] - 2.0) < 1e-12);
}

void TestSweepIo::singleStepIsFrom() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "from": 1500, "to": 9000, "steps": 1 })");
    QCOMPARE(f.spec.x.values, std::vector<double>{1500});
}

void TestSweepIo::integerKnobRangeIsWholeAndDistinct() {
    const SweepFile f = parse_ok(R"("x": { "knob": "tp", "from": 1, "to": 4, "steps": 7 })");
    QCOMPARE(f.spec.x.values, (std::vector<double>{1, 2, 3, 4}));
    const SweepFile g = parse_ok(R"("x": { "knob": "pp", "from": 1, "to": 64, "steps": 7, "scale": "log" })");
    QCOMPARE(g.spec.x.values, (std::vector<double>{1, 2, 4, 8, 16, 32, 64}));
}

void TestSweepIo::valueList() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "values": [2039, 3350.5] },
                                    "y": { "knob": "tp", "values": [1, 2, 4, 8.0] })");
    QCOMPARE(f.spec.x.values, (std::vector<double>{2039, 3350.5}));
    QVERIFY(f.spec.y.has_value());
    QCOMPARE(static_cast<int>(f.spec.y->knob), static_cast<int>(Knob::tp));
    QCOMPARE(f.spec.y->values, (std::vector<double>{1, 2, 4, 8}));
}

void TestSweepIo::railOnlyKnobSetsTheFabric() {
    Config c;
    set_knob(c, Knob::scale_out_rail_only, 1);
    QVERIFY(c.node.scale_out.rail_only);
    QCOMPARE(get_knob(c, Knob::scale_out_rail_only), 1.0);
    set_knob(c, Knob::scale_out_rail_only, 0);
    QVERIFY(!c.node.scale_out.rail_only);
    QCOMPARE(get_knob(c, Knob::scale_out_rail_only), 0.0);
    QCOMPARE(static_cast<int>(knob_info(Knob::scale_out_rail_only).kind), static_cast<int>(KnobKind::hardware));
}

void TestSweepIo::everyKnobIdIsAccepted() {
    for (const KnobInfo& k : all_knobs()) {
        const QByteArray body = R"("x": { "knob": ")" + QByteArray(k.id.data(), static_cast<qsizetype>(k.id.size())) + R"(", "values": [)" +
                                number(k.max) + "] }";
        const Loaded<SweepFile> l = parse_body(body);
        QVERIFY2(l.ok(), l.error_text().c_str());
        QCOMPARE(static_cast<int>(l.value->spec.x.knob), static_cast<int>(k.knob));
    }
}

void TestSweepIo::nameAndDescription() {
    const SweepFile f = parse_ok(R"("name": "N \u00fc", "description": "D", "x": { "knob": "tp", "values": [1] })");
    QCOMPARE(QString::fromStdString(f.name), QStringLiteral("N \u00fc"));
    QCOMPARE(QString::fromStdString(f.description), QStringLiteral("D"));
}

void TestSweepIo::searchDefaults() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "values": [2000] }, "search": {})");
    QVERIFY(f.spec.search);
    const SearchOptions defaults;
    QCOMPARE(f.spec.search_options.knobs, all_strategy_knobs);
    QCOMPARE(static_cast<int>(f.spec.search_options.objective), static_cast<int>(defaults.objective));
    QCOMPARE(f.spec.search_options.all_accelerators, defaults.all_accelerators);
    QCOMPARE(f.spec.search_options.max_microbatch, defaults.max_microbatch);
    QCOMPARE(f.spec.search_options.top_k, defaults.top_k);
    QCOMPARE(f.spec.search_options.prune, defaults.prune);
}

void TestSweepIo::searchEveryKey() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "values": [2000] },
        "search": { "enabled": true, "objective": "mfu", "knobs": ["tp", "pp", "dp", "microbatch"],
                    "all_accelerators": false, "max_microbatch": 8, "top_k": 5, "prune": false })");
    QVERIFY(f.spec.search);
    const SearchOptions& o = f.spec.search_options;
    QCOMPARE(static_cast<int>(o.objective), static_cast<int>(Objective::mfu));
    QCOMPARE(o.knobs, knob_bit(Knob::tp) | knob_bit(Knob::pp) | knob_bit(Knob::dp) | knob_bit(Knob::microbatch));
    QCOMPARE(o.all_accelerators, false);
    QCOMPARE(o.max_microbatch, 8);
    QCOMPARE(o.top_k, 5);
    QCOMPARE(o.prune, false);
}

void TestSweepIo::searchDisabled() {
    const SweepFile f = parse_ok(R"("x": { "knob": "hbm_gbps", "values": [2000] }, "search": { "enabled": false })");
    QVERIFY(!f.spec.search);
}

void TestSweepIo::relativeScenarioPathResolvesAgainstTheSweepFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath("sweeps"));
    QVERIFY(QDir(dir.path()).mkpath("scenarios"));
    QVERIFY(write_file(dir.filePath("scenarios/s.comet.json"), QByteArray::fromStdString(default_scenario_text())));
    const QString sweep_path = dir.filePath("sweeps/a.sweep.json");
    QVERIFY(write_file(sweep_path, R"({ "format": "comet-sweep", "version": 1, "scenario": "../scenarios/s.comet.json",
                                        "x": { "knob": "nodes", "values": [1, 2] } })"));
    // From another working directory, the path still resolves against the sweep file.
    const fs::path old_cwd = fs::current_path();
    fs::current_path(fs::temp_directory_path());
    const Loaded<SweepFile> l = load_sweep_file(sweep_path.toStdString());
    fs::current_path(old_cwd);
    QVERIFY2(l.ok(), l.error_text().c_str());
    QCOMPARE(QString::fromStdString(l.value->scenario_file.string()), QDir::cleanPath(dir.filePath("scenarios/s.comet.json")));
    QCOMPARE(QString::fromStdString(l.value->scenario.name),
             QString::fromStdString(load_scenario_file(default_scenario_path()).value->name));
}

void TestSweepIo::parseSweepResolvesAgainstBaseDir() {
    const QByteArray text = sweep_text(R"("x": { "knob": "tp", "values": [8] })", R"("scenarios/default.comet.json")");
    const Loaded<SweepFile> l = parse(text, source_dir() / "presets");
    QVERIFY2(l.ok(), l.error_text().c_str());
    QCOMPARE(l.value->scenario_file, (source_dir() / "presets" / "scenarios" / "default.comet.json").lexically_normal());
}

void TestSweepIo::embeddedScenario() {
    const std::string sc = default_scenario_text();
    QVERIFY(!sc.empty());
    const Loaded<SweepFile> l = parse(sweep_text(R"("x": { "knob": "tp", "values": [8] })", QByteArray::fromStdString(sc)));
    QVERIFY2(l.ok(), l.error_text().c_str());
    QVERIFY(l.value->scenario_file.empty());
    const Loaded<Scenario> direct = load_scenario_file(default_scenario_path());
    QCOMPARE(scenario_to_json(l.value->scenario), scenario_to_json(*direct.value));
}

void TestSweepIo::shippedExampleLoads() {
    const fs::path file = source_dir() / "presets" / "sweeps" / "hbm-vs-scaleout.sweep.json";
    const Loaded<SweepFile> l = load_sweep_file(file);
    QVERIFY2(l.ok(), l.error_text().c_str());
    const SweepSpec& s = l.value->spec;
    QCOMPARE(static_cast<int>(s.x.knob), static_cast<int>(Knob::hbm_gbps));
    QCOMPARE(s.x.values.size(), std::size_t{8});
    QCOMPARE(s.x.values.front(), 1000.0);
    QCOMPARE(s.x.values.back(), 8000.0);
    QVERIFY(s.y.has_value());
    QCOMPARE(static_cast<int>(s.y->knob), static_cast<int>(Knob::scale_out_gbps));
    QCOMPARE(s.y->values, (std::vector<double>{6.25, 12.5, 25, 50, 100}));
    QVERIFY(s.search);
    QCOMPARE(s.search_options.knobs, transformer_strategy_knobs);  // every knob a transformer has
    QCOMPARE(l.value->scenario.config.cluster.nodes, 384);
}

void TestSweepIo::unknownKnobSuggests() {
    expect_error(R"("x": { "knob": "hbm_gbs", "from": 1000, "to": 8000, "steps": 8 })",
                 R"(x.knob = "hbm_gbs": unknown knob (did you mean "hbm_gbps"?))");
}

void TestSweepIo::unknownKnobListsKnobs() {
    expect_error_starting(R"("x": { "knob": "frobnication", "values": [1] })",
                          R"(x.knob = "frobnication": unknown knob (knobs: tp, pp, dp, microbatch)");
}

void TestSweepIo::valueOutOfKnobRange() {
    expect_error_starting(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 1e12, "steps": 8 })",
                          "x.to = 1e+12: out of range; must be from ");
    expect_error(R"("x": { "knob": "hbm_gbps", "from": -5, "to": 100, "steps": 8 })",
                 "x.from = -5: out of range; must be from 0.001 to 10000000 GB/s (hbm_gbps: HBM bandwidth)");
    expect_error_starting(R"("x": { "knob": "hbm_gbps", "values": [2000] }, "y": { "knob": "tp", "values": [1, 0, 2] })",
                          "y.values[1] = 0: out of range; must be an integer from 1 to ");
    expect_error_starting(R"("x": { "knob": "zero_stage", "values": [4] })",
                          "x.values[0] = 4: out of range; must be an integer from 0 to 3");
    expect_error_starting(R"("x": { "knob": "tp_overlap", "values": [2] })", "x.values[0] = 2: out of range; must be 0 or 1");
    expect_error_starting(R"("x": { "knob": "scale_out_rail_only", "values": [0, 2] })", "x.values[1] = 2: out of range; must be 0 or 1");
    expect_error_starting(R"("x": { "knob": "scale_out_rail_only", "values": [0.5] })", "x.values[0] = 0.5");
}

void TestSweepIo::nonIntegerForIntegerKnob() {
    expect_error_starting(R"("x": { "knob": "tp", "values": [1, 1.5] })",
                          "x.values[1] = 1.5: not a whole number; must be an integer from 1 to ");
    expect_error_starting(R"("x": { "knob": "layers", "from": 1.5, "to": 96, "steps": 4 })", "x.from = 1.5: not a whole number");
}

void TestSweepIo::logScaleNeedsPositiveBounds() {
    expect_error(R"("x": { "knob": "expanded_gib", "from": 0, "to": 1024, "steps": 4, "scale": "log" })",
                 R"(x.from = 0: must be > 0 for "scale": "log")");
    expect_error(R"("x": { "knob": "expanded_gbps", "from": 100, "to": 0, "steps": 4, "scale": "log" })",
                 R"(x.to = 0: must be > 0 for "scale": "log")");
}

void TestSweepIo::stepsOutOfRange() {
    expect_error(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 0 })", "x.steps = 0: must be an integer from 1 to 4096");
    expect_error(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 5000 })",
                 "x.steps = 5000: must be an integer from 1 to 4096");
    expect_error(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 2.5 })", "x.steps: expected an integer, got 2.5");
    expect_error(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 1e300 })",
                 "x.steps: expected an integer, got 1e+300 (out of range); must be an integer from 1 to 4096");
}

void TestSweepIo::sameKnobOnBothAxes() {
    expect_error(R"("x": { "knob": "tp", "values": [1, 2] }, "y": { "knob": "tp", "values": [4] })",
                 R"(y.knob = "tp": the same knob as x.knob; the two axes must move different knobs)");
}

void TestSweepIo::searchKnobsMustBeStrategyKnobs() {
    expect_error_starting(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": ["pp", "hbm_gbps"] })",
                          R"(search.knobs[1] = "hbm_gbps": not a strategy knob; a search varies only tp, pp, dp, )");
    expect_error(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": ["pp", "microbach"] })",
                 R"(search.knobs[1] = "microbach": unknown knob (did you mean "microbatch"?))");
    expect_error(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": ["pp", "pp"] })", R"(search.knobs[1] = "pp": listed twice)");
    expect_error_starting(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": [] })", "search.knobs: is empty");
    expect_error(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": "tp" })",
                 R"(search.knobs: expected an array of strategy knob names, got string "tp")");
    expect_error(R"("x": { "knob": "tp", "values": [1] }, "search": { "knobs": [8] })",
                 "search.knobs[0]: expected a knob name (string), got 8");
}

void TestSweepIo::searchOptionErrors() {
    const QByteArray x = R"("x": { "knob": "tp", "values": [1] }, )";
    expect_error(x + R"("search": { "objective": "fast" })", R"(search.objective = "fast": must be one of time, mfu)");
    expect_error(x + R"("search": { "top_k": 0 })", "search.top_k = 0: must be an integer from 1 to 1000");
    expect_error(x + R"("search": { "max_microbatch": -1 })",
                 "search.max_microbatch = -1: must be an integer from 0 (no limit) to 1000000000");
    expect_error(x + R"("search": { "enabled": 1 })", "search.enabled: expected true or false, got 1");
    expect_error(x + R"("search": { "knbos": ["tp"] })", R"(search.knbos: unknown key (did you mean "knobs"?))");
}

void TestSweepIo::axisShapeErrors() {
    expect_error(R"("x": { "knob": "tp", "values": [1], "from": 1 })",
                 R"(x: give either "values" or "from", "to" and "steps" (with "scale"), not both)");
    expect_error(R"("x": { "knob": "tp" })", R"(x: missing the values: give "values": [...] or "from", "to" and "steps")");
    expect_error(R"("x": { "knob": "tp", "values": [] })", "x.values: has 0 values; must have 1 to 4096");
    expect_error(R"("x": { "knob": "tp", "values": 4 })", "x.values: expected an array of numbers, got 4");
    expect_error(R"("x": { "knob": "tp", "values": [1, "2"] })", R"(x.values[1]: expected a number, got string "2")");
    expect_error(R"("x": { "knob": "tp", "values": [2, 1, 2] })", "x.values[2] = 2: duplicate value; each value may appear once");
    expect_error(R"("x": { "knob": "tp", "from": 1, "steps": 4 })", "x.to: missing (required)");
    expect_error(R"("x": { "knob": "hbm_gbps", "from": 1, "to": 2, "steps": 4, "scale": "cubic" })",
                 R"(x.scale = "cubic": must be one of linear, log)");
    expect_error(R"("x": { "values": [1] })", "x.knob: missing (required)");
    expect_error(R"("x": [1, 2])", "x: expected an object, got an array");
    expect_error(R"("y": { "knob": "tp", "values": [1] })", "x: missing (required)");
    expect_error(R"("x": { "knob": "tp", "values": [1], "unit": "GB/s" })", "x.unit: unknown key (allowed keys: knob, values)");

    QByteArray many = R"("x": { "knob": "hbm_gbps", "values": [)";
    for (int i = 1; i <= 4097; ++i) many += (i > 1 ? "," : "") + QByteArray::number(i);
    expect_error(many + "] }", "x.values: has 4097 values; must have 1 to 4096");
}

void TestSweepIo::tooManyCells() {
    expect_error_starting(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 4096 },
                             "y": { "knob": "scale_out_gbps", "from": 1, "to": 100, "steps": 4096 })",
                          "y: the axes give 4096 x 4096 = 16777216 cells; at most 1048576 are allowed");
}

void TestSweepIo::unknownTopLevelKey() {
    expect_error(R"("x": { "knob": "tp", "values": [1] }, "serach": {})", R"(serach: unknown key (did you mean "search"?))");
}

void TestSweepIo::badScenarioPath() {
    const Loaded<SweepFile> l = parse(sweep_text(R"("x": { "knob": "tp", "values": [1] })", R"("no-such.comet.json")"), "/nonexistent-dir");
    expect_failure(l, false);
    QCOMPARE(l.errors.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(l.errors[0]),
             label() + R"(: scenario = "no-such.comet.json": cannot load the scenario file /nonexistent-dir/no-such.comet.json:)");
    QCOMPARE(QString::fromStdString(l.errors[1]),
             QStringLiteral("/nonexistent-dir/no-such.comet.json: cannot open: No such file or directory"));
}

void TestSweepIo::scenarioFileWithErrorsReportsItsErrors() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::string sc = default_scenario_text();
    sc.replace(sc.find("\"layers\""), 8, "\"laers\"");
    QVERIFY(write_file(dir.filePath("s.comet.json"), QByteArray::fromStdString(sc)));
    const Loaded<SweepFile> l = parse(sweep_text(R"("x": { "knob": "tp", "values": [1] })", R"("s.comet.json")"), dir.path().toStdString());
    expect_failure(l, false);
    const QString file = dir.filePath("s.comet.json");
    QVERIFY2(lines_of(l.errors).contains(file + R"(: model.laers: unknown key (did you mean "layers"?))"), qPrintable(joined(l.errors)));
    QVERIFY2(lines_of(l.errors).contains(file + ": model.layers: missing (required)"), qPrintable(joined(l.errors)));
}

void TestSweepIo::scenarioValueShapes() {
    const QByteArray x = R"("x": { "knob": "tp", "values": [1] })";
    for (const auto& [sc, expected] : std::vector<std::pair<QByteArray, QString>>{
             {"5", "scenario: expected a path to a scenario file or a scenario object, got 5"},
             {"[]", "scenario: expected a path to a scenario file or a scenario object, got an array"},
             {"null", "scenario: expected a path to a scenario file or a scenario object, got null"},
             {R"("")", "scenario: is empty; must be a path to a scenario file (relative to the sweep file) or a scenario object"}}) {
        const Loaded<SweepFile> l = parse(sweep_text(x, sc));
        expect_failure(l);
        QCOMPARE(joined(l.errors), label() + ": " + expected);
    }
    const Loaded<SweepFile> missing = parse(R"({ "format": "comet-sweep", "version": 1, "x": { "knob": "tp", "values": [1] } })");
    expect_failure(missing);
    QCOMPARE(joined(missing.errors), label() + ": scenario: missing (required): a path to a scenario file or a scenario object");
}

void TestSweepIo::embeddedScenarioErrorsCarryThePrefix() {
    const QByteArray x = R"("x": { "knob": "tp", "values": [1] })";
    auto check = [&](const std::string& from, const std::string& to, const QString& expected) {
        std::string sc = default_scenario_text();
        const auto at = sc.find(from);
        QVERIFY2(at != std::string::npos, from.c_str());
        sc.replace(at, from.size(), to);
        const Loaded<SweepFile> l = parse(sweep_text(x, QByteArray::fromStdString(sc)));
        expect_failure(l);
        QVERIFY2(lines_of(l.errors).contains(label() + ": " + expected), qPrintable(joined(l.errors)));
    };
    check(R"("layers": 128)", R"("laers": 128)", R"(scenario.model.laers: unknown key (did you mean "layers"?))");
    check(R"("layers": 128)", R"("laers": 128)", "scenario.model.layers: missing (required)");
    check(R"("hbm_bandwidth_gbps": 2039)", R"("hbm_bandwidth_gbps": -5)",
          "scenario.node.hbm_bandwidth_gbps = -5: must be > 0 and at most 1e7 GB/s");
    check(R"("layers": 128)", R"("layers": 1e300)",
          "scenario.model.layers: expected an integer, got 1e+300 (out of range); must be an integer from 1 to 100000");
    check(R"("precision": "fp16")", R"("precision": "fp12")",
          R"(scenario.training.precision = "fp12": must be one of fp16, bf16, fp8, mxfp8, fp4)");
    check(R"("format": "comet-scenario")", R"("format": "comet-sweep")",
          R"(scenario.format = "comet-sweep": must be "comet-scenario" (not a COMET Explorer scenario file))");
    check(R"("version": 4)", R"("version": 9)",
          "scenario.version: file was written by a newer COMET Explorer (format version 9); this build reads versions up to 4");
    check(R"("software": "megatron-core-te-eager")", R"("software": "megatron")",
          R"(scenario.software = "megatron": no software preset of that name (known: deepseek-v3-stack, deepspeed, hugectr, )"
          R"(llm-foundry-fsdp, maxtext-xla, megatron-bridge-full-iteration, megatron-bridge-te-graphs, megatron-core-te-eager, )"
          R"(megatron-lm-2021, pytorch-eager, rocm-pytorch-te, )"
          R"(torchrec-eager, torchtitan-fsdp2))");
    check(R"("heads": 160)", R"("heads": 0)", "scenario.model.heads = 0: must be an integer from 1 to 65536");
}

void TestSweepIo::wrongFormatOrVersion() {
    const QByteArray x = R"("x": { "knob": "tp", "values": [1] })";
    auto whole = [&](const QByteArray& head) { return "{ " + head + R"(, "scenario": "x", )" + x + " }"; };
    struct Case {
        QByteArray text;
        QString expected;
    };
    for (const Case& c :
         {Case{whole(R"("format": "comet-scenario", "version": 1)"),
               R"(format = "comet-scenario": must be "comet-sweep" (not a COMET Explorer sweep file))"},
          Case{whole(R"("format": "comet-sweep", "version": 2)"),
               "version: file was written by a newer COMET Explorer (sweep format version 2); this build reads versions up to 1"},
          Case{whole(R"("format": "comet-sweep", "version": 0)"), "version = 0: must be a format version from 1 to 1"},
          Case{whole(R"("format": "comet-sweep", "version": "1")"), R"(version: expected an integer, got string "1")"},
          Case{"{ " + QByteArray(R"("version": 1, "scenario": "x", )") + x + " }", "format: missing (required)"}}) {
        const Loaded<SweepFile> l = parse(c.text, "/nonexistent-dir");
        expect_failure(l, false);
        QVERIFY2(lines_of(l.errors).contains(label() + ": " + c.expected), qPrintable(joined(l.errors)));
    }
    // A newer or foreign file is refused as a whole, without a cascade of unknown keys.
    const Loaded<SweepFile> newer = parse(R"({ "format": "comet-sweep", "version": 3, "scenario": "x", "z": {} })");
    QCOMPARE(newer.errors.size(), std::size_t{1});
}

void TestSweepIo::hostileInput() {
    auto expect_one = [](const QByteArray& text, const QString& start) {
        const Loaded<SweepFile> l = parse(text);
        expect_failure(l);
        QVERIFY2(QString::fromStdString(l.errors.front()).startsWith(label() + ": " + start), l.error_text().c_str());
    };
    expect_one("", "is empty");
    expect_one("   \n ", "contains only whitespace");
    expect_one("[1, 2]", "expected a JSON object at the top level, got an array");
    expect_one("{ \"format\": ", "not valid JSON");
    expect_one(QByteArray(100000, '[') + QByteArray(100000, ']'), "is nested deeper than 64 levels");
    expect_one(sweep_text(R"("x": { "knob": "tp", "values": )" + QByteArray(70, '[') + "1" + QByteArray(70, ']') + " }"),
               "is nested deeper than 64 levels");
    expect_one(sweep_text(R"("x": { "knob": "hbm_gbps", "from": 1e400, "to": 2, "steps": 2 })"), "not valid JSON: number overflow");
    expect_one(sweep_text(R"("x": { "knob": "hbm_gbps", "from": 1e300, "to": 2, "steps": 2 })"), "x.from = 1e+300: out of range");
    expect_one(sweep_text(R"("x": { "knob": "tp", "values": [123456789012345678901234567890] })"),
               "x.values[0] = 1.2345678901234568e+29: out of range");
    expect_one(sweep_text(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 2000, "steps": 99999999999999999999 })"),
               "x.steps: expected an integer, got");
    expect_one(R"({ "format": "comet-sweep", "format": "comet-sweep" })", "format: duplicate key");
    expect_one(sweep_text(R"("x": { "knob": "\u0000\u00ff", "values": [1] })"), "x.knob = ");
}

void TestSweepIo::fileOver16MiBIsRefused() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("huge.sweep.json");
    QByteArray text = sweep_text(R"("description": ")" + QByteArray(20 << 20, 'a') + R"(", "x": { "knob": "tp", "values": [1] })");
    QVERIFY(write_file(path, text));
    const Loaded<SweepFile> l = load_sweep_file(path.toStdString());
    QVERIFY(!l.ok());
    QCOMPARE(l.errors.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(l.errors[0]).startsWith(path + ": is too large ("), l.error_text().c_str());
    // The same text given directly is refused too.
    const Loaded<SweepFile> direct = parse(text);
    expect_failure(direct);
    QVERIFY(QString::fromStdString(direct.errors[0]).startsWith(label() + ": is too large"));
}

void TestSweepIo::missingFile() {
    const Loaded<SweepFile> l = load_sweep_file("/nonexistent-dir/x.sweep.json");
    QCOMPARE(joined(l.errors), QStringLiteral("/nonexistent-dir/x.sweep.json: cannot open: No such file or directory"));
}

void TestSweepIo::randomBytesNeverCrash() {
    QRandomGenerator rng(20240601);
    const QByteArray valid = sweep_text(R"("x": { "knob": "hbm_gbps", "from": 1000, "to": 8000, "steps": 8, "scale": "log" },
                                           "y": { "knob": "tp", "values": [1, 2, 4, 8] },
                                           "search": { "knobs": ["tp", "pp"], "top_k": 3 })");
    QVERIFY(parse(valid).ok());
    for (int i = 0; i < 3000; ++i) {
        QByteArray t = valid;
        const int edits = 1 + static_cast<int>(rng.bounded(4));
        for (int e = 0; e < edits; ++e) {
            const auto at = static_cast<qsizetype>(rng.bounded(static_cast<quint32>(t.size())));
            switch (rng.bounded(3)) {
                case 0:
                    t[at] = static_cast<char>(rng.bounded(256));
                    break;
                case 1:
                    t.remove(at, 1 + static_cast<qsizetype>(rng.bounded(8)));
                    break;
                default:
                    t.insert(at, "\"[{:,}]0-e.\\"[rng.bounded(12)]);
                    break;
            }
        }
        const Loaded<SweepFile> l = parse(t);
        QVERIFY(l.ok() || !l.errors.empty());
        for (const auto& line : l.errors) QVERIFY(line.size() < 2000);
    }
}

void TestSweepIo::columnsAreStable() {
    const auto two = sweep_columns(true);
    const auto one = sweep_columns(false);
    QCOMPARE(two.size(), one.size() + 2);
    const std::vector<std::string_view> expected = {"x_knob",
                                                    "y_knob",
                                                    "x",
                                                    "y",
                                                    "feasible",
                                                    "reason",
                                                    "reason_text",
                                                    "iteration_s",
                                                    "compute_s",
                                                    "bubble_s",
                                                    "tp_comm_s",
                                                    "pp_comm_s",
                                                    "dp_comm_s",
                                                    "memory_s",
                                                    "optimizer_s",
                                                    "other_s",
                                                    "ep_comm_s",
                                                    "cp_comm_s",
                                                    "lookup_s",
                                                    "emb_comm_s",
                                                    "tokens_per_s",
                                                    "mfu",
                                                    "model_tflops_per_gpu",
                                                    "hbm_used_gib",
                                                    "hbm_capacity_gib",
                                                    "expanded_used_gib",
                                                    "tp",
                                                    "pp",
                                                    "dp",
                                                    "microbatch",
                                                    "interleave",
                                                    "recompute",
                                                    "sequence_parallel",
                                                    "zero_stage",
                                                    "offload_optimizer",
                                                    "offload_weights",
                                                    "offload_activations",
                                                    "dp_overlap",
                                                    "tp_overlap",
                                                    "cp",
                                                    "ep",
                                                    "etp",
                                                    "ep_overlap",
                                                    "zero_shard",
                                                    "emb_sharding",
                                                    "emb_placement",
                                                    "emb_cache_fraction",
                                                    "emb_cache_hit_rate",
                                                    "emb_state",
                                                    "runner_up",
                                                    "runner_up_iteration_s",
                                                    "evaluated",
                                                    "infeasible"};
    QVERIFY(two == expected);
    QVERIFY(one.front() == "x_knob" && one[1] == "x" && one[2] == "feasible");
}

void TestSweepIo::rowsCarryTheCells() {
    const SweepFile f = two_axis_sweep();
    const SweepResult r = two_axis_result();
    const auto rows = sweep_rows(f, r);
    QCOMPARE(rows.size(), std::size_t{4});
    const SweepRow& bad = rows[1];
    QCOMPARE(QString::fromStdString(bad.x_knob), QStringLiteral("hbm_gbps"));
    QCOMPARE(QString::fromStdString(bad.y_knob), QStringLiteral("tp"));
    QCOMPARE(bad.x, 2000.5);
    QCOMPARE(bad.y, 1.0);
    QVERIFY(!bad.feasible);
    QCOMPARE(QString::fromStdString(bad.reason), QStringLiteral("hbm_capacity"));
    QCOMPARE(QString::fromStdString(bad.reason_text), QString::fromStdString(explain(r.cells[1].result)));
    // A searched cell where nothing fits names the most common reason and how often it struck.
    SweepResult none = r;
    none.cells[1].result.reason = Infeasible::no_feasible_strategy;
    none.cells[1].result.detail_a = double(static_cast<int>(Infeasible::hbm_capacity));
    none.cells[1].result.detail_b = 1234;
    const auto none_rows = sweep_rows(f, none);
    QCOMPARE(QString::fromStdString(none_rows[1].reason), QStringLiteral("no_feasible_strategy"));
    QCOMPARE(QString::fromStdString(none_rows[1].reason_text),
             QStringLiteral("no strategy fits (most often: does not fit in HBM, 1234 configurations)"));
    SweepFile as_given = f;
    as_given.spec.search = false;
    QCOMPARE(QString::fromStdString(sweep_rows(as_given, r)[1].reason_text), QString::fromStdString(explain(r.cells[1].result)));
    QVERIFY(bad.runner_up.empty());
    QCOMPARE(bad.runner_up_iteration_s, 0.0);
    const SweepRow& good = rows[2];
    QVERIFY(good.feasible);
    QVERIFY(good.reason_text.empty());
    QCOMPARE(QString::fromStdString(good.runner_up), QString::fromStdString(format_strategy(r.cells[2].runner_up_strategy)));
    QCOMPARE(good.runner_up_iteration_s, r.cells[2].runner_up_iteration_s);
    QCOMPARE(good.hbm_used_gib, units::bytes_to_gib(r.cells[2].result.hbm.used_bytes()));
    QCOMPARE(good.hbm_capacity_gib, 80.0);
    QCOMPARE(good.expanded_used_gib, units::bytes_to_gib(5e9));
    QCOMPARE(good.iteration_s, r.cells[2].result.iteration_s);
    QCOMPARE(good.evaluated, std::uint64_t{1010});
}

void TestSweepIo::jsonRoundTrip() {
    const SweepFile f = two_axis_sweep();
    SweepResult r = two_axis_result();
    r.cells[3].result.mfu = std::numeric_limits<double>::quiet_NaN();  // written as null, read as NaN
    const std::string text = sweep_to_json(f, r);
    QVERIFY(text.starts_with("{\n  \"format\": \"comet-sweep-result\",\n  \"version\": 1,"));
    QVERIFY(text.find("\"runner_up_iteration_s\": null") != std::string::npos);
    QVERIFY(text.find("\"mfu\": null") != std::string::npos);
    const Loaded<std::vector<SweepRow>> back = read_sweep_json(text, "out.json");
    QVERIFY2(back.ok(), back.error_text().c_str());
    const auto expected = sweep_rows(f, r);
    QCOMPARE(back.value->size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) compare_rows((*back.value)[i], expected[i]);
}

void TestSweepIo::jsonOneAxis() {
    SweepFile f = two_axis_sweep();
    f.spec.y.reset();
    SweepResult r = two_axis_result();
    r.ny = 1;
    r.cells.resize(2);
    const std::string text = sweep_to_json(f, r);
    QVERIFY(text.find("\"y\":") == std::string::npos);
    QVERIFY(text.find("\"y_knob\": \"\"") != std::string::npos);
    const auto back = read_sweep_json(text, "out.json");
    QVERIFY2(back.ok(), back.error_text().c_str());
    const auto expected = sweep_rows(f, r);
    QCOMPARE(back.value->size(), std::size_t{2});
    for (std::size_t i = 0; i < expected.size(); ++i) compare_rows((*back.value)[i], expected[i]);
}

void TestSweepIo::readSweepJsonErrors() {
    const std::string good = sweep_to_json(two_axis_sweep(), two_axis_result());
    auto expect = [](const std::string& text, const QString& expected) {
        const auto l = read_sweep_json(text, "out.json");
        QVERIFY(!l.ok());
        QVERIFY2(lines_of(l.errors).contains("out.json: " + expected), qPrintable(joined(l.errors)));
    };
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string t = good;
        t.replace(t.find(from), from.size(), to);
        return t;
    };
    expect(replaced("comet-sweep-result", "comet-sweep"), R"(format = "comet-sweep": must be "comet-sweep-result" (not sweep results))");
    expect(replaced("\"version\": 1", "\"version\": 2"), "version = 2: must be a format version from 1 to 1");
    expect(replaced("\"nx\": 2", "\"nx\": 3"), "cells: has 4 cells; nx x ny = 3 x 2");
    expect(replaced("\"tokens_per_s\"", "\"tokens_per_sec\""), R"(cells[0].tokens_per_sec: unknown key (did you mean "tokens_per_s"?))");
    expect(replaced("\"tp\": 1,", "\"tp\": \"1\","), R"(cells[0].tp: expected an integer, got string "1")");
    expect(replaced("\"recompute\": \"selective\"", "\"recompute\": \"some\""),
           R"(cells[0].recompute = "some": must be one of none, selective, full)");
    expect(replaced("\"evaluated\": 1000", "\"evaluated\": -1"), "cells[0].evaluated: must be 0 or more, got -1");
    expect(replaced("\"iteration_s\"", "\"iteration\""), "cells[0].iteration_s: missing (required)");
    expect("[]", "expected a JSON object at the top level, got an array");
}

void TestSweepIo::csvHasHeaderAndOneLinePerCell() {
    SweepFile f = two_axis_sweep();
    f.spec.search = false;  // reason_text is explain(), which has a comma
    const SweepResult r = two_axis_result();
    const std::string text = sweep_to_csv(f, r);
    bool ok = false;
    const auto records = parse_csv(text, ok);
    QVERIFY2(ok, text.c_str());
    QCOMPARE(records.size(), std::size_t{1 + 4});
    const auto columns = sweep_columns(true);
    QCOMPARE(records[0].size(), columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) QCOMPARE(records[0][i], std::string(columns[i]));
    // The reason text has a comma, so it is quoted.
    QVERIFY(text.find(",\"" + explain(r.cells[1].result) + "\",") != std::string::npos);

    const auto rows = sweep_rows(f, r);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& rec = records[i + 1];
        QCOMPARE(rec.size(), columns.size());
        auto col = [&](std::string_view name) -> const std::string& {
            const auto at = std::find(columns.begin(), columns.end(), name) - columns.begin();
            return rec[static_cast<std::size_t>(at)];
        };
        const SweepRow& a = rows[i];
        SweepRow b;  // parsed back from the CSV
        b.x_knob = col("x_knob");
        b.y_knob = col("y_knob");
        b.x = to_double(col("x"));
        b.y = to_double(col("y"));
        b.feasible = col("feasible") == "true";
        QVERIFY(col("feasible") == "true" || col("feasible") == "false");
        b.reason = col("reason");
        b.reason_text = col("reason_text");
        b.iteration_s = to_double(col("iteration_s"));
        for (const TimePart& p : time_parts()) b.time.*p.seconds = to_double(col(std::string(p.column)));
        b.tokens_per_s = to_double(col("tokens_per_s"));
        b.mfu = to_double(col("mfu"));
        b.model_tflops_per_gpu = to_double(col("model_tflops_per_gpu"));
        b.hbm_used_gib = to_double(col("hbm_used_gib"));
        b.hbm_capacity_gib = to_double(col("hbm_capacity_gib"));
        b.expanded_used_gib = to_double(col("expanded_used_gib"));
        b.strategy.tp = std::stoi(col("tp"));
        b.strategy.pp = std::stoi(col("pp"));
        b.strategy.dp = std::stoi(col("dp"));
        b.strategy.microbatch = std::stoi(col("microbatch"));
        b.strategy.interleave = std::stoi(col("interleave"));
        const std::string& rc = col("recompute");
        b.strategy.recompute = rc == "full" ? Recompute::full : rc == "selective" ? Recompute::selective : Recompute::none;
        QCOMPARE(QString::fromStdString(rc), QString::fromStdString(std::string(to_string(a.strategy.recompute))));
        b.strategy.sequence_parallel = col("sequence_parallel") == "true";
        b.strategy.zero_stage = std::stoi(col("zero_stage"));
        b.strategy.offload_optimizer = col("offload_optimizer") == "true";
        b.strategy.offload_weights = col("offload_weights") == "true";
        b.strategy.offload_activations = col("offload_activations") == "true";
        b.strategy.dp_overlap = col("dp_overlap") == "true";
        b.strategy.tp_overlap = col("tp_overlap") == "true";
        b.runner_up = col("runner_up");
        if (b.runner_up.empty()) QCOMPARE(col("runner_up_iteration_s"), std::string());
        b.runner_up_iteration_s = b.runner_up.empty() ? 0.0 : to_double(col("runner_up_iteration_s"));
        b.evaluated = std::stoull(col("evaluated"));
        b.infeasible = std::stoull(col("infeasible"));
        compare_rows(a, b);
    }
}

void TestSweepIo::csvOneAxisHasNoYColumns() {
    SweepFile f = two_axis_sweep();
    f.spec.y.reset();
    SweepResult r = two_axis_result();
    r.ny = 1;
    r.cells.resize(2);
    const std::string text = sweep_to_csv(f, r);
    QVERIFY(text.starts_with("x_knob,x,feasible,reason,reason_text,iteration_s,"));
    QVERIFY(text.ends_with("\r\n"));
    bool ok = false;
    const auto records = parse_csv(text, ok);
    QVERIFY(ok);
    QCOMPARE(records.size(), std::size_t{3});
    QCOMPARE(records[2][1], std::string("2000.5"));
}

void TestSweepIo::csvUsesShortestExactNumbers() {
    const SweepFile f = two_axis_sweep();
    SweepResult r = two_axis_result();
    r.cells[0].result.mfu = 0.1 + 0.2;
    r.cells[0].result.tokens_per_s = 1e22;
    const std::string text = sweep_to_csv(f, r);
    QVERIFY(text.find(",0.30000000000000004,") != std::string::npos);
    QVERIFY(text.find(",1e+22,") != std::string::npos);
    QVERIFY(text.find("\r\nhbm_gbps,tp,1000,1,true,none,,") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestSweepIo)
#include "test_sweep_io.moc"
