// SPDX-License-Identifier: GPL-3.0-or-later
// The error strip above the argument editor. Its room is reserved whether or not there is a
// message (unless asked not to), so an error appearing or going never moves the editor under the
// user's pointer; a
// message longer than the room is cut with "…" and shown whole in the tooltip.
#pragma once

#include <QLabel>

namespace ss::ui {

class MessageStrip : public QLabel
{
    Q_OBJECT
public:
    /// Reserves `lines` lines of text.
    explicit MessageStrip(int lines, QWidget* parent = nullptr);

    /// Off: the strip takes no room while it has no message (under a text that already says what
    /// to do, two empty lines are only a gap). On by default.
    void setReservesRoom(bool reserves);

    /// Shows a message (rich text: "<b>invalid_argument</b>: ..."); empty clears it.
    void setMessage(const QString& html);
    /// The whole message, as given (empty when there is none).
    QString message() const { return m_message; }
    /// Whether the message had to be cut to fit.
    bool isElided() const { return m_elided; }
    /// Whether the strip is open to show a long message whole (it grows to fit it).
    bool isExpanded() const { return m_expanded; }
    /// Opens or closes the strip; it stays open only while its message is too long for the
    /// reserved room (set before the strip is laid out, it opens once it is, if need be).
    void setExpanded(bool expanded);
    /// The strip's background, text and border colours while it shows a message: the
    /// application palette's (the theme's) Base tinted red, and its Text.
    QColor background() const;
    QColor foreground() const;
    QColor border() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void refit();

    int m_lines;
    QString m_message;
    bool m_elided = false;
    bool m_expanded = false;
    bool m_reservesRoom = true;
};

} // namespace ss::ui
