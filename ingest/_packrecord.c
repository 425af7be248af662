/*
 * The ``record_packed`` codec in C (ingest/packed_record.py): ``pack_text`` and ``unpack_bytes`` over a whole
 * Arrow column at once, both versions (1: each quoted card code one byte; 2: a skeleton and the cards range-coded
 * by the deal model).  A projection of that Python reference, kept equal to it by
 * tests/ingest/test_packed_record.py; the card codes, the suits and every constant of the model come from
 * ``init`` (tarock.cards, ingest.packed_record), never from a copy kept here.
 *
 * ``pack(data, offsets)`` / ``unpack(data, offsets)``: ``data`` the column's bytes, ``offsets`` its n + 1 value
 * offsets as int64 (Arrow's large string / binary layout, not necessarily from 0); both return
 * ``(bytes, offsets as bytes of int64 from 0)``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CARDS 64
#define MAX_CODE 3
#define MAX_CODE_BYTES 255 /* a version-2 code's length is one byte */
#define CODE_CAP 512       /* the bytes an encoder keeps (more: the code is too long anyway) */

static int n_cards = 0;
static unsigned char code_text[MAX_CARDS][MAX_CODE];
static int code_len[MAX_CARDS];
static unsigned char card_byte = 0, last_card_byte = 0, escape_byte = 0, v2_byte = 0;
static uint64_t suit_mask[MAX_CARDS], tarok_mask = 0;
static uint32_t legal_weight = 1, winner_weight = 1;

static int16_t card_of1[256], card_of2[256][256];  /* the card of a 1- or 2-byte code, -1: none */
static int long_cards[MAX_CARDS], n_long = 0;     /* the cards of 3-byte codes */
static unsigned char special[256];                 /* the bytes packing looks at: a quote, the card bytes */

#define IS_CARD(b) ((b) >= card_byte && (b) <= last_card_byte)

/* ------------------------------------------------------------------------------------------- version 1 */

/* The card whose quoted code starts at data[p] within [p, end), its quoted length in *len; -1 when none. */
static int code_at(const unsigned char *data, Py_ssize_t p, Py_ssize_t end, int *len) {
    if (p >= end || data[p] != '"') return -1;
    if (p + 2 < end && data[p + 2] == '"' && card_of1[data[p + 1]] >= 0) {
        *len = 3;
        return card_of1[data[p + 1]];
    }
    if (p + 3 < end && data[p + 3] == '"' && card_of2[data[p + 1]][data[p + 2]] >= 0) {
        *len = 4;
        return card_of2[data[p + 1]][data[p + 2]];
    }
    if (p + 4 < end && data[p + 4] == '"') {
        for (int k = 0; k < n_long; k++) {
            int c = long_cards[k];
            if (memcmp(data + p + 1, code_text[c], 3) == 0) {
                *len = 5;
                return c;
            }
        }
    }
    return -1;
}

/* pack_v1 of data[p, end) into o (room for 2 * (end - p)); the bytes written. */
static Py_ssize_t pack_v1(const unsigned char *data, Py_ssize_t p, Py_ssize_t end, unsigned char *o) {
    Py_ssize_t j = 0, prev_end = -1; /* where the last packed code ended */
    while (p < end) {
        Py_ssize_t run = p; /* the bytes up to the next quote or card-range byte, copied at once */
        while (run < end && !special[data[run]]) run++;
        memcpy(o + j, data + p, (size_t)(run - p));
        j += run - p;
        p = run;
        if (p == end) break;
        unsigned char b = data[p];
        int len, card = b == '"' && p != prev_end ? code_at(data, p, end, &len) : -1;
        if (card >= 0) {
            o[j++] = (unsigned char)(card_byte + card);
            p += len;
            prev_end = p;
            int next_len;
            if (p < end && data[p] == ',' && code_at(data, p + 1, end, &next_len) >= 0) p++; /* between codes */
        } else {
            if (IS_CARD(b)) o[j++] = escape_byte;
            o[j++] = b;
            p++;
        }
    }
    return j;
}

/* unpack_v1 of data[0, n) into o (room for (MAX_CODE + 3) * n); the bytes written. */
static Py_ssize_t unpack_v1(const unsigned char *data, Py_ssize_t n, unsigned char *o) {
    Py_ssize_t p = 0, j = 0;
    while (p < n) {
        unsigned char b = data[p];
        if (b == escape_byte && p + 1 < n) {
            o[j++] = data[p + 1];
            p += 2;
        } else if (IS_CARD(b)) {
            int c = b - card_byte;
            o[j++] = '"';
            memcpy(o + j, code_text[c], (size_t)code_len[c]);
            j += code_len[c];
            o[j++] = '"';
            p++;
            if (p < n && IS_CARD(data[p])) o[j++] = ',';
        } else {
            o[j++] = b;
            p++;
        }
    }
    return j;
}

/* ------------------------------------------------------------------------------ version 2: the range coder */

#define TOP (1u << 24)
#define BOTTOM (1u << 16)

typedef struct {
    uint32_t low, range;
    unsigned char out[CODE_CAP];
    Py_ssize_t n, used; /* bytes out; bytes up to the last nonzero one */
} Enc;

static void enc_byte(Enc *e, unsigned char b) {
    if (e->n < CODE_CAP) e->out[e->n] = b;
    e->n++;
    if (b) e->used = e->n;
}

static void put(Enc *e, uint32_t cum, uint32_t freq, uint32_t total) {
    uint32_t step = e->range / total;
    e->low += cum * step;
    e->range = step * freq;
    for (;;) {
        if ((e->low ^ (e->low + e->range)) >= TOP) {
            if (e->range >= BOTTOM) return;
            e->range = (0u - e->low) & (BOTTOM - 1);
        }
        enc_byte(e, (unsigned char)(e->low >> 24));
        e->low <<= 8;
        e->range <<= 8;
    }
}

static void put_uniform(Enc *e, uint32_t value, uint32_t total) {
    if (total > 1) put(e, value, 1, total);
}

/* The code's length after the flush (``_Encoder.finish``); its bytes in e->out. */
static Py_ssize_t enc_finish(Enc *e) {
    for (int count = 0; count < 5; count++) {
        uint64_t unit = (uint64_t)1 << (32 - 8 * count);
        uint64_t value = ((uint64_t)e->low + unit - 1) / unit * unit;
        if (value < (uint64_t)e->low + e->range) {
            for (int k = 0; k < count; k++) enc_byte(e, (unsigned char)(value >> (24 - 8 * k)));
            break;
        }
    }
    return e->used;
}

typedef struct {
    const unsigned char *data;
    Py_ssize_t n, at;
    uint32_t low, range, code, step;
} Dec;

static unsigned char dec_byte(Dec *d) {
    unsigned char b = d->at < d->n ? d->data[d->at] : 0;
    d->at++;
    return b;
}

static void dec_init(Dec *d, const unsigned char *data, Py_ssize_t n) {
    d->data = data;
    d->n = n;
    d->at = 0;
    d->low = 0;
    d->range = 0xFFFFFFFFu;
    d->code = 0;
    for (int k = 0; k < 4; k++) d->code = (d->code << 8) | dec_byte(d);
}

/* Where the next symbol lies in [0, total); -1: a damaged code. */
static int64_t target(Dec *d, uint32_t total) {
    d->step = d->range / total;
    uint32_t value = (d->code - d->low) / d->step;
    return value >= total ? -1 : (int64_t)value;
}

static void take(Dec *d, uint32_t cum, uint32_t freq) {
    d->low += cum * d->step;
    d->range = d->step * freq;
    for (;;) {
        if ((d->low ^ (d->low + d->range)) >= TOP) {
            if (d->range >= BOTTOM) return;
            d->range = (0u - d->low) & (BOTTOM - 1);
        }
        d->code = (d->code << 8) | dec_byte(d);
        d->low <<= 8;
        d->range <<= 8;
    }
}

static int64_t get_uniform(Dec *d, uint32_t total) {
    if (total == 1) return 0;
    int64_t value = target(d, total);
    if (value >= 0) take(d, (uint32_t)value, 1);
    return value;
}

/* ------------------------------------------------------------------------------ version 2: the deal model */

/* A bit count without libgcc's call (no POPCNT is assumed of the CPU): a handful of operations. */
static inline uint32_t POP(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}
#define BIT(c) ((uint64_t)1 << (c))

/* players, hand size, talon size when the runs open with a deal (``_shape``); 0 otherwise. */
static int shape(const int *lens, int n_runs, int *players, int *size, int *talon_size) {
    if (n_runs == 0) return 0;
    int p = 1;
    while (p < n_runs && lens[p] == lens[0]) p++;
    if (p < 2 || p == n_runs || p * lens[0] + lens[p] != n_cards) return 0;
    *players = p;
    *size = lens[0];
    *talon_size = lens[p];
    return 1;
}

/* The place of the card that takes a trick so far (``_best``). */
static int best(const unsigned char *trick, int n) {
    int b = 0;
    for (int k = 1; k < n; k++) {
        int card = trick[k], top = trick[b];
        int higher_of_suit = (suit_mask[top] >> card & 1) && card > top;
        if (higher_of_suit || ((tarok_mask >> card & 1) && !(tarok_mask >> top & 1))) b = k;
    }
    return b;
}

/* The cards a player may play after ``before`` (``_Weights``). */
static uint64_t legal_of(uint64_t hand, const unsigned char *trick, int before) {
    if (before == 0) return hand;
    uint64_t follow = hand & suit_mask[trick[0]];
    if (follow) return follow;
    if (hand & tarok_mask) return hand & tarok_mask;
    return hand;
}

static uint32_t weights_total(uint64_t hand, uint64_t legal) { return (legal_weight - 1) * POP(legal) + POP(hand) + 1; }

static int talon_index(const unsigned char *talon, int t, int card) {
    for (int k = 0; k < t; k++)
        if (talon[k] == card) return k;
    return t;
}

static void put_loose(Enc *e, int card, const unsigned char *talon, int t) {
    int at = talon_index(talon, t, card);
    put_uniform(e, (uint32_t)at, (uint32_t)t + 1);
    if (at == t) put(e, (uint32_t)card, 1, (uint32_t)n_cards);
}

static int get_loose(Dec *d, const unsigned char *talon, int t) {
    int64_t at = get_uniform(d, (uint32_t)t + 1);
    if (at < 0) return -1;
    return at < t ? talon[at] : (int)get_uniform(d, (uint32_t)n_cards);
}

static void played(int card, uint64_t *hands, int players) {
    for (int s = 0; s < players; s++) hands[s] &= ~BIT(card);
}

/* The talon exchange (``_Picked``): the picked cards not yet given to the declarer, and whether the last run
   was a pick. */
typedef struct {
    uint64_t talon, cards;
    int after_pick;
} Picked;

static void picked_after(Picked *pk, const unsigned char *run, int len, uint64_t *hands, int players) {
    if (pk->after_pick) {
        int declarer = -1;
        for (int k = 0; k < len && declarer < 0; k++)
            for (int s = 0; s < players; s++)
                if (hands[s] >> run[k] & 1) {
                    declarer = s;
                    break;
                }
        for (int k = 0; k < len; k++) {
            played(run[k], hands, players);
            pk->cards &= ~BIT(run[k]);
        }
        if (declarer >= 0) {
            hands[declarer] |= pk->cards;
            pk->cards = 0;
        }
    }
    uint64_t mask = 0;
    for (int k = 0; k < len; k++) mask |= BIT(run[k]);
    pk->after_pick = (mask & pk->talon) == mask;
    if (pk->after_pick) pk->cards |= mask;
}

/* Code the runs' cards (``_code_cards``); 0 where the model does not hold. */
static int code_cards(const unsigned char *cards, const int *lens, int n_runs, Enc *e) {
    int players, size, t;
    if (!shape(lens, n_runs, &players, &size, &t)) return 0;
    signed char owner[MAX_CARDS];
    memset(owner, -1, sizeof owner);
    const unsigned char *c = cards;
    uint64_t hands[MAX_CARDS];
    for (int s = 0; s <= players; s++) {
        int previous = -1;
        if (s < players) hands[s] = 0;
        for (int k = 0; k < lens[s]; k++, c++) {
            if (owner[*c] >= 0 || (s < players && *c <= previous)) return 0;
            owner[*c] = (signed char)s;
            previous = *c;
            if (s < players) hands[s] |= BIT(*c);
        }
    }
    const unsigned char *talon = c - t;
    uint32_t caps[MAX_CARDS + 1], total = (uint32_t)n_cards;
    for (int s = 0; s < players; s++) caps[s] = (uint32_t)size;
    caps[players] = (uint32_t)t;
    for (int card = 0; card < n_cards; card++, total--) {
        int s = owner[card];
        if (caps[s] < total) {
            uint32_t cum = 0;
            for (int k = 0; k < s; k++) cum += caps[k];
            put(e, cum, caps[s], total);
        }
        caps[s]--;
    }
    uint64_t left = 0;
    for (int k = 0; k < t; k++) left |= BIT(talon[k]);
    const uint64_t left_all = left;
    for (int k = 0; k < t; k++) {
        put_uniform(e, POP(left & (BIT(talon[k]) - 1)), POP(left));
        left &= ~BIT(talon[k]);
    }
    int winner = -1;
    Picked pk = {left_all, 0, 0};
    for (int r = players + 1; r < n_runs; r++) {
        const unsigned char *run = c;
        c += lens[r];
        if (lens[r] != players) {
            for (int k = 0; k < lens[r]; k++) put_loose(e, run[k], talon, t);
            picked_after(&pk, run, lens[r], hands, players);
            winner = -1;
            continue;
        }
        pk.after_pick = 0;
        int leader = 0;
        for (int s = 0; s < players; s++)
            if (hands[s] >> run[0] & 1) {
                leader = s;
                break;
            }
        if (winner < 0) put_uniform(e, (uint32_t)leader, (uint32_t)players);
        else put(e, (uint32_t)leader + (leader > winner ? winner_weight - 1 : 0), leader == winner ? winner_weight : 1,
                 (uint32_t)players + winner_weight - 1);
        for (int k = 0; k < players; k++) {
            int s = (leader + k) % players, card = run[k];
            uint64_t hand = hands[s], legal = legal_of(hand, run, k);
            uint32_t tot = weights_total(hand, legal);
            if (hand >> card & 1) {
                uint64_t below = BIT(card) - 1;
                put(e, (legal_weight - 1) * POP(legal & below) + POP(hand & below),
                    (legal >> card & 1) ? legal_weight : 1, tot);
                hands[s] = hand & ~BIT(card);
            } else {
                put(e, tot - 1, 1, tot);
                put_loose(e, card, talon, t);
                played(card, hands, players);
            }
        }
        winner = (leader + best(run, players)) % players;
    }
    return 1;
}

/* The runs' cards from their code (``_decode_cards``) into ``cards``; -1: a damaged value. */
static int decode_cards(const int *lens, int n_runs, Dec *d, unsigned char *cards) {
    int players, size, t;
    if (!shape(lens, n_runs, &players, &size, &t)) return -1;
    uint32_t caps[MAX_CARDS + 1], total = (uint32_t)n_cards;
    for (int s = 0; s < players; s++) caps[s] = (uint32_t)size;
    caps[players] = (uint32_t)t;
    uint64_t hands[MAX_CARDS], left = 0;
    for (int s = 0; s < players; s++) hands[s] = 0;
    for (int card = 0; card < n_cards; card++, total--) {
        int s = 0;
        while (!caps[s]) s++;
        if (caps[s] < total) {
            int64_t at = target(d, total);
            if (at < 0) return -1;
            uint32_t cum = 0;
            s = 0;
            while ((uint32_t)at >= cum + caps[s]) cum += caps[s++];
            take(d, cum, caps[s]);
        }
        if (s < players) hands[s] |= BIT(card);
        else left |= BIT(card);
        caps[s]--;
    }
    unsigned char *c = cards;
    for (int s = 0; s < players; s++) {
        for (uint64_t h = hands[s]; h; h &= h - 1) *c++ = (unsigned char)__builtin_ctzll(h);
    }
    unsigned char *talon = c;
    Picked pk = {left, 0, 0};
    for (int k = 0; k < t; k++) {
        int64_t at = get_uniform(d, POP(left));
        if (at < 0) return -1;
        uint64_t h = left;
        for (int64_t m = 0; m < at; m++) h &= h - 1;
        int card = __builtin_ctzll(h);
        *c++ = (unsigned char)card;
        left &= ~BIT(card);
    }
    int winner = -1;
    for (int r = players + 1; r < n_runs; r++) {
        unsigned char *run = c;
        c += lens[r];
        if (lens[r] != players) {
            for (int k = 0; k < lens[r]; k++) {
                int card = get_loose(d, talon, t);
                if (card < 0) return -1;
                run[k] = (unsigned char)card;
            }
            picked_after(&pk, run, lens[r], hands, players);
            winner = -1;
            continue;
        }
        pk.after_pick = 0;
        int leader;
        if (winner < 0) {
            int64_t v = get_uniform(d, (uint32_t)players);
            if (v < 0) return -1;
            leader = (int)v;
        } else {
            int64_t v = target(d, (uint32_t)players + winner_weight - 1);
            if (v < 0) return -1;
            leader = v < winner ? (int)v : v < winner + (int64_t)winner_weight ? winner : (int)(v - winner_weight + 1);
            take(d, (uint32_t)leader + (leader > winner ? winner_weight - 1 : 0), leader == winner ? winner_weight : 1);
        }
        for (int k = 0; k < players; k++) {
            int s = (leader + k) % players, card = -1;
            uint64_t hand = hands[s], legal = legal_of(hand, run, k);
            uint32_t tot = weights_total(hand, legal);
            int64_t v = target(d, tot);
            if (v < 0) return -1;
            uint32_t cum = 0;
            for (uint64_t h = hand; h; h &= h - 1) {
                int x = __builtin_ctzll(h);
                uint32_t w = (legal >> x & 1) ? legal_weight : 1;
                if ((uint32_t)v < cum + w) {
                    card = x;
                    take(d, cum, w);
                    break;
                }
                cum += w;
            }
            if (card >= 0) {
                hands[s] = hand & ~BIT(card);
            } else {
                take(d, tot - 1, 1);
                card = get_loose(d, talon, t);
                if (card < 0) return -1;
                played(card, hands, players);
            }
            run[k] = (unsigned char)card;
        }
        winner = (leader + best(run, players)) % players;
    }
    return 0;
}

/* ------------------------------------------------------------------------ version 2: skeleton and runs */

/* Split a version-1 form into skeleton, cards and run lengths (``_split``); 0 when a run is too long. */
static int split(const unsigned char *v1, Py_ssize_t n, unsigned char *skel, Py_ssize_t *skel_len,
                 unsigned char *cards, int *lens, int *n_runs) {
    Py_ssize_t p = 0, j = 0, m = 0;
    int r = 0;
    while (p < n) {
        unsigned char b = v1[p];
        if (b == escape_byte && p + 1 < n) {
            skel[j++] = b;
            skel[j++] = v1[p + 1];
            p += 2;
        } else if (IS_CARD(b)) {
            Py_ssize_t start = p;
            while (p < n && IS_CARD(v1[p])) cards[m++] = (unsigned char)(v1[p++] - card_byte);
            if (p - start > n_cards) return 0;
            skel[j++] = (unsigned char)(card_byte + (p - start) - 1);
            lens[r++] = (int)(p - start);
        } else {
            skel[j++] = b;
            p++;
        }
    }
    *skel_len = j;
    *n_runs = r;
    return 1;
}

#define VARINT_LIMIT (1 << 14)

static int is_separator(unsigned char b) {
    return b == '"' || b == ',' || b == ':' || b == '{' || b == '}' || b == '[' || b == ']';
}

/* Cut a skeleton into values (each ended by a zero byte) and template (``_cut``); 0 for a zero byte.
   values and template have room for n + (colons) and n bytes. */
static int cut(const unsigned char *skel, Py_ssize_t n, unsigned char *values, Py_ssize_t *values_len,
               unsigned char *template, Py_ssize_t *template_len) {
    if (memchr(skel, 0, (size_t)n) != NULL) return 0;
    Py_ssize_t p = 0, v = 0, t = 0;
    while (p < n) {
        unsigned char b = skel[p++];
        template[t++] = b;
        if (b != ':') continue;
        int quoted = p < n && skel[p] == '"';
        if (quoted) template[t++] = skel[p++];
        Py_ssize_t start = p;
        while (p < n && !is_separator(skel[p])) p++;
        if (!quoted && p > start && p < n && skel[p] == '"') { /* cut, it would come back as :"x: stays */
            p = start;
            continue;
        }
        memcpy(values + v, skel + start, (size_t)(p - start));
        v += p - start;
        values[v++] = 0;
    }
    *values_len = v;
    *template_len = t;
    return 1;
}

/* The skeleton of values and template (``_uncut``) into skel (room for both); its length, -1: damaged. */
static Py_ssize_t uncut(const unsigned char *values, Py_ssize_t values_len, const unsigned char *template,
                        Py_ssize_t template_len, unsigned char *skel) {
    if (values_len && values[values_len - 1] != 0) return -1;
    Py_ssize_t p = 0, v = 0, j = 0;
    while (p < template_len) {
        unsigned char b = template[p++];
        skel[j++] = b;
        if (b != ':') continue;
        if (p < template_len && template[p] == '"') skel[j++] = template[p++];
        else if (p < template_len && !is_separator(template[p])) continue; /* a value the template kept */
        if (v >= values_len) return -1;
        while (values[v]) skel[j++] = values[v++];
        v++;
    }
    return v == values_len ? j : -1;
}

/* The version-2 form of a version-1 form into o (room for 2n + 262), when it applies; else 0.
   skel, values, template: scratch of n + 8 bytes each (values: 2n + 8). */
static Py_ssize_t pack_v2(const unsigned char *v1, Py_ssize_t n, unsigned char *o, unsigned char *cards, int *lens,
                          unsigned char *skel, unsigned char *values, unsigned char *template) {
    Py_ssize_t skel_len, values_len, template_len;
    int n_runs;
    if (!split(v1, n, skel, &skel_len, cards, lens, &n_runs)) return 0;
    if (!cut(skel, skel_len, values, &values_len, template, &template_len) || values_len >= VARINT_LIMIT) return 0;
    Enc e = {0, 0xFFFFFFFFu, {0}, 0, 0};
    if (!code_cards(cards, lens, n_runs, &e)) return 0;
    Py_ssize_t code_len = enc_finish(&e), head = values_len < 0x80 ? 3 : 4;
    Py_ssize_t total = head + values_len + template_len + code_len;
    if (code_len > MAX_CODE_BYTES) return 0;
    o[0] = v2_byte;
    o[1] = (unsigned char)code_len;
    if (head == 3) {
        o[2] = (unsigned char)values_len;
    } else {
        o[2] = (unsigned char)(0x80 | (values_len & 0x7F));
        o[3] = (unsigned char)(values_len >> 7);
    }
    memcpy(o + head, values, (size_t)values_len);
    memcpy(o + head + values_len, template, (size_t)template_len);
    memcpy(o + head + values_len + template_len, e.out, (size_t)code_len);
    return total;
}

/* A version-2 value data[0, n)'s skeleton into skel (room for n), its length in *skel_len, and its code's place
   in *code_at; -1: damaged. */
static int parse_v2(const unsigned char *data, Py_ssize_t n, unsigned char *skel, Py_ssize_t *skel_len,
                    Py_ssize_t *code_at) {
    if (n < 3 || n < 3 + data[1]) return -1;
    Py_ssize_t size = data[2], at = 3;
    if (size >= 0x80) {
        if (n < 4 + data[1]) return -1;
        size = (size & 0x7F) | (Py_ssize_t)data[3] << 7;
        at = 4;
    }
    *code_at = n - data[1];
    if (at + size > *code_at) return -1;
    *skel_len = uncut(data + at, size, data + at + size, *code_at - at - size, skel);
    return *skel_len < 0 ? -1 : 0;
}

/* The runs' lengths of a skeleton into lens, their cards decoded from code into cards (room for 54 a skeleton
   byte); the number of cards, -1: damaged. */
static Py_ssize_t decode_v2(const unsigned char *skel, Py_ssize_t skel_len, const unsigned char *code,
                            Py_ssize_t code_len, unsigned char *cards, int *lens) {
    Py_ssize_t count = 0;
    int n_runs = 0;
    for (Py_ssize_t p = 0; p < skel_len; p++) {
        if (skel[p] == escape_byte && p + 1 < skel_len) p++;
        else if (IS_CARD(skel[p])) count += lens[n_runs++] = skel[p] - card_byte + 1;
    }
    Dec d;
    dec_init(&d, code, code_len);
    return decode_cards(lens, n_runs, &d, cards) < 0 ? -1 : count;
}

/* The text of a skeleton and its runs' cards into o (room for (MAX_CODE + 3) times the skeleton and the
   cards): ``unpack_v1`` of the skeleton with its runs put back, in one pass (a run is maximal, so commas go
   between its cards only); the bytes written. */
static Py_ssize_t write_v2(const unsigned char *skel, Py_ssize_t skel_len, const unsigned char *cards,
                           const int *lens, unsigned char *o) {
    Py_ssize_t j = 0;
    int r = 0;
    for (Py_ssize_t p = 0; p < skel_len; p++) {
        unsigned char b = skel[p];
        if (b == escape_byte && p + 1 < skel_len) {
            o[j++] = skel[++p];
        } else if (IS_CARD(b)) {
            for (int k = 0; k < lens[r]; k++) {
                int c = *cards++;
                if (k) o[j++] = ',';
                o[j++] = '"';
                memcpy(o + j, code_text[c], (size_t)code_len[c]);
                j += code_len[c];
                o[j++] = '"';
            }
            r++;
        } else {
            o[j++] = b;
        }
    }
    return j;
}

/* ------------------------------------------------------------------------------------------ the column */

static int get_offsets(PyObject *obj, Py_buffer *view, Py_ssize_t *n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len % 8 != 0 || view->len < 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "offsets: n + 1 int64 values");
        return -1;
    }
    *n = view->len / 8 - 1;
    return 0;
}

/* Room for ``extra`` more bytes after ``*used`` in ``*buf`` (of ``*cap``). */
static int reserve(unsigned char **buf, Py_ssize_t *cap, Py_ssize_t used, Py_ssize_t extra) {
    if (used + extra <= *cap) return 0;
    Py_ssize_t want = *cap * 2 > used + extra ? *cap * 2 : used + extra;
    unsigned char *grown = realloc(*buf, (size_t)want);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = grown;
    *cap = want;
    return 0;
}

static PyObject *run(PyObject *args, int packing) {
    PyObject *data_obj, *offsets_obj;
    if (!PyArg_ParseTuple(args, "OO", &data_obj, &offsets_obj)) return NULL;
    if (n_cards == 0) {
        PyErr_SetString(PyExc_RuntimeError, "init() was not called");
        return NULL;
    }
    Py_buffer dv, ov;
    Py_ssize_t n;
    if (PyObject_GetBuffer(data_obj, &dv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (get_offsets(offsets_obj, &ov, &n) < 0) {
        PyBuffer_Release(&dv);
        return NULL;
    }
    const unsigned char *data = dv.buf;
    const int64_t *offsets = ov.buf;
    PyObject *out_offsets = NULL, *result = NULL;
    unsigned char *out = NULL, *v1 = NULL, *cards = NULL, *skel = NULL, *values = NULL, *template = NULL;
    int *lens = NULL;
    if (offsets[0] < 0 || offsets[n] > dv.len || offsets[n] < offsets[0]) {
        PyErr_SetString(PyExc_ValueError, "offsets outside the data");
        goto done;
    }
    Py_ssize_t longest = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (offsets[i + 1] < offsets[i]) {
            PyErr_SetString(PyExc_ValueError, "offsets not ascending");
            goto done;
        }
        if (offsets[i + 1] - offsets[i] > longest) longest = (Py_ssize_t)(offsets[i + 1] - offsets[i]);
    }
    /* scratch: packing, a version-1 form (2 bytes a byte), its cards and runs; unpacking, up to 54 cards and
       a run a byte */
    Py_ssize_t v1_cap = packing ? 2 * longest + 8 : (Py_ssize_t)n_cards * longest + 8;
    Py_ssize_t cap = packing ? 2 * (offsets[n] - offsets[0]) + 8 : 2 * (offsets[n] - offsets[0]) + 64;
    /* packing writes version 2 there: up to 4 header bytes, the values with their ends (twice the skeleton),
       the template and the code */
    v1 = malloc(packing ? (size_t)(2 * v1_cap + MAX_CODE_BYTES + 8) : 1);
    cards = malloc((size_t)v1_cap);
    /* a skeleton (unpacking: as long as the value, the values' ends cut in), its values and template */
    skel = malloc((size_t)(packing ? v1_cap : longest + 8));
    values = malloc((size_t)(packing ? 2 * v1_cap : 1));
    template = malloc((size_t)(packing ? v1_cap : 1));
    lens = malloc(sizeof(int) * (size_t)v1_cap);
    out = malloc((size_t)cap);
    out_offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * 8);
    if (v1 == NULL || cards == NULL || lens == NULL || out == NULL || skel == NULL || values == NULL ||
        template == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (out_offsets == NULL) goto done;
    int64_t *oo = (int64_t *)PyBytes_AS_STRING(out_offsets);
    Py_ssize_t j = 0;
    oo[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t p = offsets[i], end = offsets[i + 1];
        if (packing) {
            if (reserve(&out, &cap, j, 2 * (end - p)) < 0) goto done;
            Py_ssize_t len1 = pack_v1(data, p, end, out + j);
            Py_ssize_t len2 = pack_v2(out + j, len1, v1, cards, lens, skel, values, template);
            if (len2 > 0) {
                if (reserve(&out, &cap, j, len2) < 0) goto done;
                memcpy(out + j, v1, (size_t)len2);
            }
            j += len2 > 0 ? len2 : len1;
        } else {
            const unsigned char *src = data + p;
            Py_ssize_t len = end - p;
            if (len > 0 && src[0] == v2_byte) {
                Py_ssize_t skel_len, code_at, count = -1;
                if (parse_v2(src, len, skel, &skel_len, &code_at) == 0)
                    count = decode_v2(skel, skel_len, src + code_at, len - code_at, cards, lens);
                if (count < 0) {
                    PyErr_Format(PyExc_ValueError, "record_packed: a damaged version-2 value (row %zd)", i);
                    goto done;
                }
                if (reserve(&out, &cap, j, (MAX_CODE + 3) * (skel_len + count)) < 0) goto done;
                j += write_v2(skel, skel_len, cards, lens, out + j);
            } else {
                if (reserve(&out, &cap, j, (MAX_CODE + 3) * len) < 0) goto done;
                j += unpack_v1(src, len, out + j);
            }
        }
        oo[i + 1] = j;
    }
    PyObject *bytes = PyBytes_FromStringAndSize((const char *)out, j);
    if (bytes == NULL) goto done;
    result = PyTuple_Pack(2, bytes, out_offsets);
    Py_DECREF(bytes);
done:
    free(out);
    free(v1);
    free(cards);
    free(skel);
    free(values);
    free(template);
    free(lens);
    Py_XDECREF(out_offsets);
    PyBuffer_Release(&dv);
    PyBuffer_Release(&ov);
    return result;
}

static PyObject *pack(PyObject *self, PyObject *args) { return run(args, 1); }
static PyObject *unpack(PyObject *self, PyObject *args) { return run(args, 0); }

/* init(codes, card_byte, escape_byte, v2_byte, suit_masks, tarok_mask, legal_weight, winner_weight): the card
   codes in card order (ASCII, 1 to 3 characters), each card's suit as a mask of cards, the model's weights. */
static PyObject *init(PyObject *self, PyObject *args) {
    PyObject *codes, *suits;
    int first, escape, v2;
    unsigned long long taroks;
    unsigned int legal, winner;
    if (!PyArg_ParseTuple(args, "OiiiOKII", &codes, &first, &escape, &v2, &suits, &taroks, &legal, &winner))
        return NULL;
    Py_ssize_t count = PySequence_Size(codes);
    if (count < 1 || count > MAX_CARDS || first < 0x80 || first + count - 1 > 0xFF || escape < 0 || escape > 0xFF ||
        v2 < 0 || v2 > 0xFF || PySequence_Size(suits) != count || legal < 1 || winner < 1 || legal > 1024 ||
        winner > 1024) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "init: 1 to 64 codes and their suits, card bytes from 0x80");
        return NULL;
    }
    for (Py_ssize_t c = 0; c < count; c++) {
        PyObject *code = PySequence_GetItem(codes, c);
        if (code == NULL) return NULL;
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(code, &len);
        Py_DECREF(code);
        if (text == NULL) return NULL;
        if (len < 1 || len > MAX_CODE) {
            PyErr_SetString(PyExc_ValueError, "init: a code of 1 to 3 bytes");
            return NULL;
        }
        memcpy(code_text[c], text, (size_t)len);
        code_len[c] = (int)len;
        PyObject *suit = PySequence_GetItem(suits, c);
        if (suit == NULL) return NULL;
        suit_mask[c] = PyLong_AsUnsignedLongLong(suit);
        Py_DECREF(suit);
        if (PyErr_Occurred()) return NULL;
    }
    memset(card_of1, 0xFF, sizeof card_of1); /* every entry -1 */
    memset(card_of2, 0xFF, sizeof card_of2);
    n_long = 0;
    memset(special, 0, sizeof special);
    special['"'] = 1;
    for (int b = first; b < first + count; b++) special[b] = 1;
    for (int c = 0; c < (int)count; c++) {
        if (code_len[c] == 1) card_of1[code_text[c][0]] = (int16_t)c;
        else if (code_len[c] == 2) card_of2[code_text[c][0]][code_text[c][1]] = (int16_t)c;
        else long_cards[n_long++] = c;
    }
    n_cards = (int)count;
    card_byte = (unsigned char)first;
    last_card_byte = (unsigned char)(first + count - 1);
    escape_byte = (unsigned char)escape;
    v2_byte = (unsigned char)v2;
    tarok_mask = taroks;
    legal_weight = legal;
    winner_weight = winner;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", init, METH_VARARGS,
     "init(codes, card_byte, escape_byte, v2_byte, suit_masks, tarok_mask, legal_weight, winner_weight)."},
    {"pack", pack, METH_VARARGS, "pack(data, offsets) -> (bytes, offsets): ingest.packed_record.pack_text per value."},
    {"unpack", unpack, METH_VARARGS,
     "unpack(data, offsets) -> (bytes, offsets): ingest.packed_record.unpack_bytes per value."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_packrecord", "The record_packed codec.", -1, methods};

PyMODINIT_FUNC PyInit__packrecord(void) { return PyModule_Create(&module); }
