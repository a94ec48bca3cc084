// Random play on the C++ engine of github.com/dwerbin/spiceroad (built by bench_c_engine.py from
// a checkout given on its command line): every legal action listed, one drawn uniformly;
// prints games, choices (decisions with more than one option), turns and CPU seconds as JSON.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "Action.h"
#include "Game.h"
#include "Merchant.h"
#include "Objective.h"
#include "Player.h"
#include "SpiceMap.h"
#include "Strategy.h"

using namespace sr;

static std::mt19937 rng;
static long long choices = 0, turns = 0;

struct Counted : Game {
    size_t merchants_left() const { return merchant_deck.size(); }
    size_t objectives_left() const { return objective_deck.size(); }
};
static const Counted *current_game = nullptr;

static void buys(const SpiceMap &caravan, std::vector<Spice> &cost, size_t length,
                 std::vector<Action *> &out) {
    if (cost.size() == length) {
        out.push_back(new BuyAction(cost));
        return;
    }
    int used[4] = {0, 0, 0, 0};
    for (Spice s : cost) used[static_cast<int>(s)]++;
    for (int r = 0; r < 4; r++) {
        if (used[r] < caravan.get_quantity(static_cast<Spice>(r))) {
            cost.push_back(static_cast<Spice>(r));
            buys(caravan, cost, length, out);
            cost.pop_back();
        }
    }
}

static void upgrades(const SpiceMap &caravan, int times, std::set<SpiceMap> &out) {
    // every multiset of 1..times single-rank raises, as a change to the caravan
    std::vector<std::vector<int>> frontier = {{0, 0, 0, 0}};
    for (int k = 1; k <= times; k++) {
        std::vector<std::vector<int>> next;
        for (auto &d : frontier)
            for (int r = 0; r < 3; r++) {
                std::vector<int> e = d;
                e[r]--;
                e[r + 1]++;
                next.push_back(e);
                SpiceMap m({e[0], e[1], e[2], e[3]});
                if (caravan.can_apply(m)) out.insert(m);
            }
        frontier = next;
    }
}

struct RandomStrategy : Strategy {
    Action *play_turn(const Game &game, const Player &player) override {
        std::vector<Action *> acts;
        const SpiceMap &caravan = player.get_caravan();
        if (!player.get_discard().empty()) acts.push_back(new SleepAction());
        for (unsigned i = 0; i < game.get_claimables().size() && i < Game::CLAIMABLE_COUNT; i++)
            if (caravan.can_apply(game.get_claimable(i)->get_spice_map()))
                if (current_game->objectives_left() > 0) acts.push_back(new ClaimAction(i));
        if (current_game->merchants_left() > 0) {
            std::vector<Spice> cost;
            for (size_t slot = 0; slot < game.get_buyables().size(); slot++)
                buys(caravan, cost, slot, acts);
        }
        for (const Merchant *m : player.get_hand()) {
            if (const Production *p = m->as_production()) {
                acts.push_back(new ProduceAction(p));
            } else if (const Trade *t = m->as_trade()) {
                for (unsigned times = 1; caravan.can_apply(t->get_spice_map(), times); times++)
                    acts.push_back(new TradeAction(t, times));
            } else if (const Upgrade *u = m->as_upgrade()) {
                std::set<SpiceMap> maps;
                upgrades(caravan, u->get_upgrade_times(), maps);
                for (const SpiceMap &map : maps) acts.push_back(new UpgradeAction(u, map));
            }
        }
        if (acts.size() > 1) choices++;
        size_t pick = std::uniform_int_distribution<size_t>(0, acts.size() - 1)(rng);
        for (size_t i = 0; i < acts.size(); i++)
            if (i != pick) delete acts[i];
        return acts[pick];
    }
    SpiceMap drop_spice(const Game &, const Player &player) override {
        // one cube at a time, drawn uniformly among the ranks held, until at the limit
        SpiceMap caravan = player.get_caravan();
        int drop[4] = {0, 0, 0, 0};
        while (caravan.get_quantity() > Player::MAX_SPICE_IN_CARAVAN) {
            std::vector<int> held;
            for (int r = 0; r < 4; r++)
                if (caravan.get_quantity(static_cast<Spice>(r)) > 0) held.push_back(r);
            if (held.size() > 1) choices++;
            int r = held[std::uniform_int_distribution<size_t>(0, held.size() - 1)(rng)];
            caravan.remove(static_cast<Spice>(r));
            drop[r]--;
        }
        return SpiceMap({drop[0], drop[1], drop[2], drop[3]});
    }
};

int main(int argc, char **argv) {
    int players = argc > 1 ? atoi(argv[1]) : 2;
    int games = argc > 2 ? atoi(argv[2]) : 1000;
    unsigned seed = argc > 3 ? atoi(argv[3]) : 1;
    rng.seed(seed);
    std::ostringstream sink;
    std::streambuf *out = std::cout.rdbuf();
    std::clock_t start = std::clock();
    for (int g = 0; g < games; g++) {
        Counted game;
        current_game = &game;
        for (int p = 0; p < players; p++) {
            Player player("p" + std::to_string(p), new RandomStrategy());
            game.add_player(player);
        }
        std::cout.rdbuf(sink.rdbuf());
        game.prepare(seed * 100003u + g);
        std::cout.rdbuf(out);
        sink.str("");
        do {
            Player &player = game.next_player();
            if (game.get_round_id() > 150) break;
            std::unique_ptr<Action> action(player.play_turn(game));
            if (!action->valid(game, player)) throw std::runtime_error("invalid action");
            action->execute(game, player);
            player.drop_spice_if_needed(game);
            turns++;
        } while (!game.ended());
    }
    double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
    std::printf("{\"games\": %d, \"choices\": %lld, \"turns\": %lld, \"cpu_s\": %.4f}\n", games,
                choices, turns, cpu);
    return 0;
}
