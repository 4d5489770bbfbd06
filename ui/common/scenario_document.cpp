#include "scenario_document.hpp"

#include <QFileInfo>
#include <QUndoCommand>

#include "comet/presets.hpp"

namespace comet::ui {

class SetScenarioCommand : public QUndoCommand {
public:
    SetScenarioCommand(ScenarioDocument* doc, Scenario before, bool follows_before, Scenario after, bool follows_after, const QString& what,
                       int merge_id)
        : QUndoCommand(what),
          doc_(doc),
          before_(std::move(before)),
          after_(std::move(after)),
          follows_before_(follows_before),
          follows_after_(follows_after),
          merge_id_(merge_id) {}

    void undo() override { doc_->apply(before_, follows_before_); }
    void redo() override { doc_->apply(after_, follows_after_); }
    [[nodiscard]] int id() const override { return merge_id_ == 0 ? -1 : merge_id_; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SetScenarioCommand*>(other);
        if (o->merge_id_ != merge_id_) return false;
        after_ = o->after_;
        follows_after_ = o->follows_after_;
        return true;
    }

private:
    ScenarioDocument* doc_;
    Scenario before_;
    Scenario after_;
    bool follows_before_;
    bool follows_after_;
    int merge_id_;
};

ScenarioDocument::ScenarioDocument(QObject* parent) : QObject(parent) {
    connect(&undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

bool ScenarioDocument::isModified() const { return !undo_.isClean(); }

void ScenarioDocument::apply(const Scenario& s, bool name_follows) {
    scenario_ = s;
    name_follows_ = name_follows;
    scenario_.view.reset();  // the view lives beside the history (view_)
    Q_EMIT changed();
}

void ScenarioDocument::push(Scenario after, bool name_follows, const QString& what, int merge_id) {
    // An edit that names the scenario itself (a restore, an import) keeps its name.
    if (name_follows && after.name == scenario_.name) (void)follow_content(scenario_, after);
    undo_.push(new SetScenarioCommand(this, scenario_, name_follows_, std::move(after), name_follows, what, merge_id));
}

void ScenarioDocument::setConfig(const Config& config, const QString& what, int merge_id) {
    Scenario after = scenario_;
    after.config = config;
    push(std::move(after), name_follows_, what, merge_id);
}

void ScenarioDocument::setScenario(const Scenario& scenario, const QString& what, int merge_id) {
    push(scenario, name_follows_, what, merge_id);
}

void ScenarioDocument::rename(const std::string& name, const std::string& description) {
    Scenario after = scenario_;
    after.name = name;
    after.description = description;
    push(std::move(after), false, tr("Name the scenario"), 0);
}

QString ScenarioDocument::open(const QString& path) {
    const Loaded<Scenario> loaded = load_scenario_file(path.toStdString());
    if (!loaded.ok()) return QString::fromStdString(loaded.error_text());
    reset(*loaded.value, path);
    return {};
}

QString ScenarioDocument::save(const QString& path) {
    const QString target = path.isEmpty() ? path_ : path;
    if (target.isEmpty()) return tr("No file name given.");
    const std::string problem = save_scenario_file(target.toStdString(), forSaving());
    if (!problem.empty()) return QString::fromStdString(problem);
    if (target != path_) {
        path_ = target;
        Q_EMIT filePathChanged(path_);
    }
    undo_.setClean();
    return {};
}

void ScenarioDocument::setView(const ExplorerView& view) {
    if (view_ == view) return;
    view_ = view;
    Q_EMIT viewChanged();
}

void ScenarioDocument::loadView(const ExplorerView& view) {
    setView(view);
    Q_EMIT viewLoaded();
}

Scenario ScenarioDocument::forSaving() const {
    Scenario out = scenario_;
    out.view = view_;
    return out;
}

namespace {
// A scenario shipped in presets/scenarios is an example to start from: its name is not the user's.
bool shipped_scenario(const QString& path) {
    if (path.isEmpty()) return false;
    const QString dir = QFileInfo(QString::fromStdString((presets_dir() / "scenarios").string())).canonicalFilePath();
    return !dir.isEmpty() && QFileInfo(QFileInfo(path).canonicalPath()).canonicalFilePath() == dir;
}
}  // namespace

void ScenarioDocument::reset(const Scenario& scenario, const QString& path) {
    undo_.clear();
    scenario_ = scenario;
    name_follows_ = path.isEmpty() || shipped_scenario(path) || scenario.name.empty() || scenario.name == content_name(scenario);
    scenario_.view.reset();
    const bool has_view = scenario.view.has_value();
    if (has_view) view_ = scenario.view;
    if (path != path_) {
        path_ = path;
        Q_EMIT filePathChanged(path_);
    }
    undo_.setClean();
    Q_EMIT modifiedChanged(false);
    // The view first: the pages' answers to changed() write their view back into the document.
    if (has_view) Q_EMIT viewLoaded();
    Q_EMIT changed();
}

}  // namespace comet::ui
