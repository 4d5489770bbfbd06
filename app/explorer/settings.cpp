#include "settings.hpp"

#include <QFileInfo>
#include <QSettings>

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

int knob_or(const QVariant& v, Knob fallback) {
    bool ok = false;
    const int i = v.toInt(&ok);
    return ok && i >= 0 && i < static_cast<int>(Knob::count_) ? i : static_cast<int>(fallback);
}
}  // namespace

QByteArray Settings::windowGeometry() const { return store().value(key::geometry).toByteArray(); }
void Settings::setWindowGeometry(const QByteArray& g) { store().setValue(key::geometry, g); }
QByteArray Settings::windowState() const { return store().value(key::state).toByteArray(); }
void Settings::setWindowState(const QByteArray& s) { store().setValue(key::state, s); }
QByteArray Settings::splitterState() const { return store().value(key::splitter).toByteArray(); }
void Settings::setSplitterState(const QByteArray& s) { store().setValue(key::splitter, s); }

QStringList Settings::recentFiles() const {
    QStringList files = store().value(key::recent).toStringList();
    files.erase(std::remove_if(files.begin(), files.end(), [](const QString& f) { return !QFileInfo::exists(f); }), files.end());
    return files;
}

void Settings::addRecentFile(const QString& path) {
    QStringList files = recentFiles();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > 8) files.removeLast();
    store().setValue(key::recent, files);
}

QString Settings::lastScenario() const { return store().value(key::last).toString(); }
void Settings::setLastScenario(const QString& path) { store().setValue(key::last, path); }

ExplorerPage::View Settings::explorerView() const {
    QSettings s = store();
    ExplorerPage::View v;
    v.x = static_cast<Knob>(knob_or(s.value(key::view_x), v.x));
    v.y = static_cast<Knob>(knob_or(s.value(key::view_y), v.y));
    const int metric = s.value(key::view_metric, static_cast<int>(v.metric)).toInt();
    if (metric >= 0 && metric < static_cast<int>(ui::all_metrics().size())) v.metric = static_cast<ui::Metric>(metric);
    v.search = s.value(key::view_search, v.search).toBool();
    v.steps = std::clamp(s.value(key::view_steps, v.steps).toInt(), 2, 128);
    return v;
}

void Settings::setExplorerView(const ExplorerPage::View& v) {
    QSettings s = store();
    s.setValue(key::view_x, static_cast<int>(v.x));
    s.setValue(key::view_y, static_cast<int>(v.y));
    s.setValue(key::view_metric, static_cast<int>(v.metric));
    s.setValue(key::view_search, v.search);
    s.setValue(key::view_steps, v.steps);
}

}  // namespace comet::app
