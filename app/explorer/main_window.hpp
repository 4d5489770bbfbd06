#pragma once
// The main window: the parameter forms beside the explorer page, menus, files and settings.

#include <QMainWindow>

class QMenu;
class QSplitter;

namespace comet::ui {
class ParameterPanel;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class ExplorerPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts on a scenario file (or the bundled default when empty or unreadable).
    void start(const QString& scenario_path);
    [[nodiscard]] bool openFile(const QString& path);  // shows an error and keeps the current one on failure
    // Replaces the model with one from a Hugging Face config.json (undoable); false on error.
    bool importHuggingFaceFile(const QString& path);

    [[nodiscard]] ui::ScenarioDocument* document() const noexcept { return doc_; }
    [[nodiscard]] ExplorerPage* explorer() const noexcept { return explorer_; }
    [[nodiscard]] ui::ParameterPanel* parameters() const noexcept { return panel_; }

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void restoreSettings();
    void updateTitle();
    void updateRecentMenu();
    void rememberFile(const QString& path);  // recent files and last scenario
    [[nodiscard]] bool confirmDiscard();  // asks to save unsaved changes; false = cancel
    bool save();
    bool saveAs();
    void openDialog();
    void newFromDefault();
    void showAbout();
    void savePreset(bool node);  // the current node or model as a user preset
    void importHuggingFace();
    void importCalculon();
    void showImport(const QString& what, const std::vector<std::string>& mapped, const std::vector<std::string>& warnings);

    ui::ScenarioDocument* doc_;
    ui::ParameterPanel* panel_ = nullptr;
    ExplorerPage* explorer_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QMenu* recent_menu_ = nullptr;
};

}  // namespace comet::app
