#include "settings.hpp"

#include <QFileInfo>
#include <QSettings>
#include <array>
#include <string_view>

namespace comet::app {
namespace key {
constexpr auto geometry = "window/geometry";
constexpr auto state = "window/state";
constexpr auto splitter = "window/splitter";
constexpr auto recent = "files/recent";
constexpr auto last = "files/last";
constexpr auto view_x = "explorer/x";
constexpr auto view_y = "explorer/y";
constexpr auto view_metric = "explorer/metric";
constexpr auto view_search = "explorer/search";
constexpr auto view_steps = "explorer/steps";
}  // namespace key

namespace {
QSettings store() { return QSettings(); }
// One value written: a named QSettings, which writes it back when it goes out of scope.
void put(QAnyStringView key, const QVariant& value) {
    QSettings settings;
    settings.setValue(key, value);
}

// Versions before the context and expert knobs saved an axis as its index in this order; the
// enumeration has changed since, so an index is read through this table and never directly.
constexpr std::array<std::string_view, 30> legacy_knob_ids{"tp",
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
                                                           "matrix_tflops",
                                                           "vector_tflops",
                                                           "hbm_gib",
                                                           "hbm_gbps",
                                                           "expanded_gib",
                                                           "expanded_gbps",
                                                           "scale_up_gbps",
                                                           "scale_up_latency_us",
                                                           "scale_up_domain",
                                                           "scale_out_gbps",
                                                           "scale_out_latency_us",
                                                           "accelerators_per_node",
                                                           "nodes",
                                                           "seq_len",
                                                           "global_batch",
                                                           "layers",
                                                           "hidden"};

// An axis is saved as its knob id ("hbm_gbps").
Knob knob_or(const QVariant& v, Knob fallback) {
    const QString text = v.toString();
    bool is_index = false;
    const int i = text.toInt(&is_index);
    if (is_index)
        return i >= 0 && i < static_cast<int>(legacy_knob_ids.size()) ? *knob_from_id(legacy_knob_ids[static_cast<std::size_t>(i)])
                                                                      : fallback;
    const QByteArray id = text.toLatin1();
    return knob_from_id(std::string_view(id.constData(), static_cast<std::size_t>(id.size()))).value_or(fallback);
}

QString knob_id(Knob k) {
    const std::string_view id = knob_info(k).id;
    return QString::fromLatin1(id.data(), static_cast<qsizetype>(id.size()));
}
}  // namespace

QByteArray Settings::windowGeometry() const { return store().value(key::geometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& g) { put(key::geometry, g); }
QByteArray Settings::windowState() const { return store().value(key::state).toByteArray(); }
void Settings::setWindowState(const QByteArray& s) { put(key::state, s); }
QByteArray Settings::splitterState() const { return store().value(key::splitter).toByteArray(); }
void Settings::setSplitterState(const QByteArray& s) { put(key::splitter, s); }

QStringList Settings::recentFiles() const {
    QStringList files = store().value(key::recent).toStringList();
    files.removeIf([](const QString& f) { return !QFileInfo::exists(f); });
    return files;
}

void Settings::addRecentFile(const QString& path) {
    QStringList files = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > 8) files.removeLast();
    put(key::recent, files);
}

QString Settings::lastScenario() const { return store().value(key::last).toString(); }
void Settings::setLastScenario(const QString& path) { put(key::last, path); }

ExplorerPage::View Settings::explorerView() const {
    QSettings s = store();
    ExplorerPage::View v;
    v.x = knob_or(s.value(key::view_x), v.x);
    v.y = knob_or(s.value(key::view_y), v.y);
    const int metric = s.value(key::view_metric, static_cast<int>(v.metric)).toInt();
    if (metric >= 0 && metric < static_cast<int>(ui::all_metrics().size())) v.metric = static_cast<ui::Metric>(metric);
    v.search = s.value(key::view_search, v.search).toBool();
    v.steps = std::clamp(s.value(key::view_steps, v.steps).toInt(), 2, 128);
    return v;
}

void Settings::setExplorerView(const ExplorerPage::View& v) {
    QSettings s = store();
    s.setValue(key::view_x, knob_id(v.x));
    s.setValue(key::view_y, knob_id(v.y));
    s.setValue(key::view_metric, static_cast<int>(v.metric));
    s.setValue(key::view_search, v.search);
    s.setValue(key::view_steps, v.steps);
}

}  // namespace comet::app
