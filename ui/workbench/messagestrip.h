// SPDX-License-Identifier: GPL-3.0-or-later
// The message strip above the argument editor (and in the Model dock): errors on a red tint, notes
// and confirmations on the notice tint, each named so in the accessibility tree. Its room is
// reserved whether or not there is a message (unless asked not to), so an error appearing or going
// never moves the editor under the user's pointer; a message longer than the room is cut with "…"
// and shown whole in the tooltip.
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

    /// What a message is: an error (something failed or does not read), or a note (a confirmation,
    /// a remark about what was opened or given).
    enum class Kind { Error, Note };

    /// Shows a message (rich text: "<b>invalid_argument</b>: ..."); empty clears it.
    void setMessage(const QString& html, Kind kind = Kind::Error);
    /// The kind of the message on show.
    Kind kind() const { return m_kind; }
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
    /// application palette's (the theme's) Base tinted red for an error, the notice tint for a
    /// note, and its Text.
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
    Kind m_kind = Kind::Error;
    bool m_elided = false;
    bool m_expanded = false;
    bool m_reservesRoom = true;
};

} // namespace ss::ui
