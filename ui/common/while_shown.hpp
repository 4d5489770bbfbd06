#pragma once
// Work that only matters while a page is on screen. request() runs it at once when the page is
// visible; when it is hidden (another tab is current, or the window is not shown yet) it runs
// once, the next time the page is shown, however many requests came meanwhile. So an edit
// starts only the visible page's background work, and hidden pages (the comparison's searches,
// the tornado's) do not compete with it for the cores.

#include <QObject>
#include <functional>

class QWidget;

namespace comet::ui {

class WhileShown : public QObject {
public:
    WhileShown(QWidget* page, std::function<void()> work);

    void request();
    // Runs a pending request now, shown or not (tests and exports that need the result).
    void flush();
    [[nodiscard]] bool pending() const noexcept { return pending_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* page_;
    std::function<void()> work_;
    bool pending_ = false;
};

}  // namespace comet::ui
