#pragma once
// Find Best Strategy: searches every strategy of the current configuration on a worker thread
// (core search(), with progress and cancel), lists the ten fastest with why each beats the next,
// applies the best at once and any other with a click; every application is one undo step.

#include <QDialog>
#include <atomic>
#include <memory>
#include <optional>

#include "comet/search.hpp"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace comet::ui {
class LatestJob;
class ScenarioDocument;
}  // namespace comet::ui

namespace comet::app {

class BestStrategyDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int shown = 10;

    BestStrategyDialog(ui::ScenarioDocument* doc, QWidget* parent = nullptr);
    ~BestStrategyDialog() override;

    // Searches the document's configuration; `apply_best`: the best becomes the strategy when found.
    void start(bool apply_best = true);
    [[nodiscard]] bool running() const;
    [[nodiscard]] const std::optional<SearchResult>& result() const noexcept { return result_; }
    [[nodiscard]] QTableWidget* table() const noexcept { return table_; }
    [[nodiscard]] QString summary() const;  // the line above the table
    void applyRow(int row);                 // undoable

Q_SIGNALS:
    void finished_search();  // results are in the table (or the search found nothing)
    void applied(const QString& what);

private:
    void show_result(SearchResult r, const Config& searched);
    void poll_progress();

    ui::ScenarioDocument* doc_;
    std::unique_ptr<ui::LatestJob> job_;
    std::shared_ptr<std::atomic<std::uint64_t>> done_, total_;
    std::optional<SearchResult> result_;
    Config searched_;
    bool apply_best_ = true;
    QLabel* summary_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* apply_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QTimer* poll_ = nullptr;
};

}  // namespace comet::app
