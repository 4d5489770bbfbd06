#pragma once
// The main window: the parameter forms beside the explorer page, menus, files and settings.

#include <QFont>
#include <QMainWindow>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "comet/scenario.hpp"
#include "export/slide.hpp"
#include "export_dialog.hpp"

class QDialog;
class QMenu;
class QShortcut;
class QSplitter;
class QTabWidget;
class QToolBar;

namespace comet::ui {
class Autosaver;
class LatestJob;
class ParameterPanel;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class AnalysisPage;
class BestStrategyDialog;
class ComparePage;
class ExplorerPage;
class FsdpPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts on a scenario file (or the bundled default when empty or unreadable), then offers to
    // restore what a crashed session autosaved (not for headless screenshots).
    void start(const QString& scenario_path, bool offer_restore = true);
    [[nodiscard]] bool openFile(const QString& path);  // shows an error and keeps the current one on failure
    // Replaces the model with one from a Hugging Face config.json (undoable); false on error.
    bool importHuggingFaceFile(const QString& path);
    // Replaces the scenario with Calculon's application, system and execution files (undoable).
    // Both imports then say whether the imported strategy runs, and search for the best at once
    // when it does not.
    bool importCalculonFiles(const QString& app, const QString& system, const QString& exec);

    [[nodiscard]] ui::ScenarioDocument* document() const noexcept { return doc_; }
    [[nodiscard]] ExplorerPage* explorer() const noexcept { return explorer_; }
    [[nodiscard]] ui::ParameterPanel* parameters() const noexcept { return panel_; }
    [[nodiscard]] ComparePage* compare() const noexcept { return compare_; }
    [[nodiscard]] AnalysisPage* analysis() const noexcept { return analysis_; }
    [[nodiscard]] FsdpPage* fsdp() const noexcept { return fsdp_; }
    [[nodiscard]] QTabWidget* pages() const noexcept { return tabs_; }
    [[nodiscard]] ui::Autosaver* autosaver() const noexcept { return autosaver_; }
    // Find Best Strategy (Ctrl+B): searches the current configuration on a worker thread and
    // applies the fastest strategy (undoable); the dialog lists the ten best.
    void findBestStrategy();
    [[nodiscard]] BestStrategyDialog* bestStrategyDialog() const noexcept { return best_; }
    // File > Name and Description: the user names the scenario (the name then stays as given
    // whatever the content becomes; until then it follows the model, node and node count). Opens
    // a window-modal dialog and returns it (tests fill it in).
    QDialog* nameDialog();

    // Every chart of every page, for File > Export > Chart; `current` gets the index of the
    // current page's main chart.
    [[nodiscard]] std::vector<NamedChart> charts(int* current = nullptr) const;

    // What every exported chart and slide says it assumes (model, batch, precision, software,
    // hardware): core's assumptions_line() of the current scenario.
    [[nodiscard]] QString assumptionsText() const;

    // File > Export > Slide (16:9): the current page as it is on screen, the comparison table
    // (the texts the Compare page shows, the fastest design highlighted) or a one-page answer
    // (the question, the fastest design with its likely error and its lead, the chart of the
    // designs' time, the assumptions). nullopt with the reason in `why` when there is nothing
    // to show (no design compared yet).
    enum class SlideKind { page, comparison_table, answer };
    [[nodiscard]] std::optional<ui::Slide> slide(SlideKind kind, QString* why = nullptr) const;
    // Writes slide(kind) as PNG (3840 x 2160 pixels), SVG or PDF by the extension; "" or the reason.
    [[nodiscard]] QString exportSlide(SlideKind kind, const QString& path) const;

    // The one-click PDF report of the current scenario with the pages' settings (heatmap axes,
    // tornado change, Pareto node counts): computed in the background, painted and written on the
    // GUI thread; `done` gets "" or the reason. Returns false if a report is already running.
    bool exportReport(const QString& path, std::function<void(const QString& error)> done = {});

    // Presentation mode: full screen, larger fonts, forms and menus hidden; Right/Left (or
    // Page Down/Up, Space) step through pinned cells or compared designs; Esc leaves.
    void setPresentationMode(bool on);
    [[nodiscard]] bool presentationMode() const noexcept { return presenting_; }
    void presentationStep(int delta);
    // Presentation mode's size, as a slide's: 1 on a 1920x1080 screen, the window's height / 1080
    // on others (2/3 at 1280x720), so a smaller projector shows the same layout smaller.
    [[nodiscard]] double presentationScale() const noexcept { return presentation_scale_; }

protected:
    void closeEvent(QCloseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void restoreSettings();
    void updateTitle();
    void updateRecentMenu();
    void rememberFile(const QString& path);  // recent files and last scenario
    void startImported(const Scenario& imported, const QString& what);
    [[nodiscard]] bool confirmDiscard();  // asks to save unsaved changes; false = cancel
    bool save();
    bool saveAs();
    void openDialog();
    void newFromDefault();
    void showAbout();
    void exportChartDialog();
    void exportSlideDialog(SlideKind kind);
    void exportComparisonData();
    void exportReportDialog();
    void offerRestore();         // after a crash: restore the autosaved scenario?
    void savePreset(bool node);  // the current node or model as a user preset
    void importHuggingFace();
    void importCalculon();
    void showImport(const QString& what, const std::vector<std::string>& mapped, const std::vector<std::string>& warnings);
    void buildToolBar();
    void applyPresentationScale();  // fonts and chart zoom for presentation_scale_

    ui::ScenarioDocument* doc_;
    ui::ParameterPanel* panel_ = nullptr;
    ExplorerPage* explorer_ = nullptr;
    ComparePage* compare_ = nullptr;
    AnalysisPage* analysis_ = nullptr;
    FsdpPage* fsdp_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QAction* presentation_action_ = nullptr;
    QAction* best_action_ = nullptr;
    QToolBar* toolbar_ = nullptr;
    BestStrategyDialog* best_ = nullptr;
    bool presenting_ = false;
    bool was_maximized_ = false;
    double presentation_scale_ = 1.0;
    QFont normal_font_;
    std::vector<QShortcut*> presentation_keys_;
    std::unique_ptr<ui::LatestJob> report_job_;
    ui::Autosaver* autosaver_ = nullptr;
    QMenu* recent_menu_ = nullptr;
};

}  // namespace comet::app
