#pragma once
// The scenario being edited: its content, its file, whether it has unsaved changes, and the
// undo history of every edit. Edits go through setConfig()/setScenario() so that each one is
// undoable and every view hears about it through changed().

#include <QObject>
#include <QString>
#include <QUndoStack>

#include "comet/scenario.hpp"

namespace comet::ui {

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject* parent = nullptr);

    [[nodiscard]] const Scenario& scenario() const noexcept { return scenario_; }
    [[nodiscard]] const Config& config() const noexcept { return scenario_.config; }
    [[nodiscard]] const QString& filePath() const noexcept { return path_; }
    [[nodiscard]] bool isModified() const;
    [[nodiscard]] QUndoStack* undoStack() noexcept { return &undo_; }

    // An undoable edit. `what` names it in the Edit menu ("Change HBM bandwidth"). Successive
    // edits with the same non-zero `merge_id` (e.g. spin-box steps on one field) merge into one
    // undo step. While the name follows the content (nameFollowsContent()), an edit that changes
    // the model, the node or the node count and gives no name of its own renames the scenario
    // after its content (comet::follow_content), in the same undo step.
    void setConfig(const Config& config, const QString& what, int merge_id = 0);
    // Replaces names/provenance, cost inputs and designs too; undoable, merging like setConfig.
    void setScenario(const Scenario& scenario, const QString& what, int merge_id = 0);
    // The user names the scenario (File > Name and Description): undoable; from then on the name
    // stays whatever the content becomes.
    void rename(const std::string& name, const std::string& description);
    // Whether the name follows the content: for a new, imported or bundled (presets/scenarios)
    // scenario, or one whose name is its content's (content_name), until the user names it; a
    // file's own name otherwise stays.
    [[nodiscard]] bool nameFollowsContent() const noexcept { return name_follows_; }

    // Loads a file; on failure returns the error text and keeps the current scenario.
    [[nodiscard]] QString open(const QString& path);
    // Saves atomically to `path` (or the current path); returns the error text or empty.
    [[nodiscard]] QString save(const QString& path = {});
    // Starts afresh from a scenario (the bundled default at start-up); clears the history. A view
    // the scenario carries becomes the document's view (viewLoaded()).
    void reset(const Scenario& scenario, const QString& path = {});

    // What the explorer shows (heatmap axes, colour, steps, pins, page): saved with the file and
    // in the autosave, outside the undo history (scenario() never carries it). Setting it does
    // not mark the document modified.
    [[nodiscard]] const std::optional<ExplorerView>& view() const noexcept { return view_; }
    void setView(const ExplorerView& view);
    // Sets the view and has the pages show it (viewLoaded()): a restored autosave's view.
    void loadView(const ExplorerView& view);
    // The scenario as save() and the autosave write it: scenario() with the view.
    [[nodiscard]] Scenario forSaving() const;

Q_SIGNALS:
    void changed();  // content changed (edit, undo, redo, open, reset)
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);
    void viewLoaded();   // reset() or open() brought a view: the pages show it
    void viewChanged();  // setView()

private:
    friend class SetScenarioCommand;
    void apply(const Scenario& s, bool name_follows);
    void push(Scenario after, bool name_follows, const QString& what, int merge_id);

    Scenario scenario_;
    bool name_follows_ = true;
    std::optional<ExplorerView> view_;
    QString path_;
    QUndoStack undo_;
};

}  // namespace comet::ui
