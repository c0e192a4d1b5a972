/**
 * The bell shows at most this many unread notifications, then « 99+ » (spec 000 §2). The count stops there too: it
 * reads at most UNREAD_COUNT_MAX + 1 entries of the unread notifications' index, however many the person has left
 * unread, so that every signed-in page pays the same for its bell.
 */
export const UNREAD_COUNT_MAX = 99;
