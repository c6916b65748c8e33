# syntax=docker/dockerfile:1
#
# weatherbot: a Telegram weather bot, built in a Swift 6.2 image and run on Debian slim.
#
#   docker build -t weatherbot .
#   docker run -d --name weatherbot \
#       -e TELEGRAM_BOT_TOKEN=... -e OPEN_WEATHER_API_KEY=... \
#       -v weatherbot-data:/data weatherbot
#
# The builder and the runtime are both Debian 12 (bookworm), so the runtime's libcurl and
# libsqlite3 are the ones the binary was linked against.
#
# Apt packages are not pinned to exact versions (hadolint DL3008 is ignored on purpose): the
# base image tag already fixes the Debian release, and bookworm's mirrors drop superseded
# package versions as security updates land, so exact pins would break the build within weeks
# and hold back fixes for libcurl, tzdata and ca-certificates.

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
FROM swift:6.2-bookworm AS build

# GRDB links the system SQLite; the toolchain's FoundationNetworking finds libcurl in the image;
# the charts are drawn with Cairo, found with pkg-config.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libcairo2-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# Resolve the dependencies in their own layer, so that changing the code does not fetch them again.
COPY Package.swift ./
RUN swift package resolve

# Tests/ is copied too: the manifest declares the test targets, and SwiftPM expects their folders.
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product weatherbot --static-swift-stdlib

# Stage the executable with any resource bundles, which SwiftPM looks up beside the executable.
RUN mkdir /staging \
    && bin="$(swift build -c release --show-bin-path)" \
    && cp "$bin/weatherbot" /staging/ \
    && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \;

# ---------------------------------------------------------------------------------------------
# Run
# ---------------------------------------------------------------------------------------------
FROM debian:bookworm-slim

LABEL org.opencontainers.image.title="weatherbot" \
      org.opencontainers.image.description="A Telegram weather bot: long-polls the Bot API and answers with OpenWeather data."

# libcurl4: FoundationNetworking's runtime (the bot's own HTTP is AsyncHTTPClient on SwiftNIO); libsqlite3-0: the
# database; tzdata: local times of places; libcairo2, fontconfig (its cache and configuration, without which Cairo warns at start) and fonts-dejavu-core: the charts and their
# Cyrillic labels; ca-certificates: TLS to api.telegram.org and api.openweathermap.org.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates libcurl4 libsqlite3-0 tzdata libcairo2 fontconfig fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# An unprivileged user that owns the data folder. The folder is created before VOLUME so that a
# new named volume starts out with this owner; a bind-mounted folder must be writable by uid 10001.
RUN groupadd --system --gid 10001 weatherbot \
    && useradd --system --no-log-init --uid 10001 --gid weatherbot \
        --home-dir /nonexistent --shell /usr/sbin/nologin weatherbot \
    && mkdir /data \
    && chown weatherbot:weatherbot /data \
    && chmod 700 /data

COPY --from=build /staging/ /usr/local/bin/

ENV DATABASE_PATH=/data/weatherbot.sqlite
VOLUME /data
WORKDIR /data

USER 10001:10001

# Healthy while getUpdates has answered within the last 5 minutes (read from the database).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["weatherbot", "status"]

# SIGTERM (docker stop) shuts the bot down gracefully: polling stops, chats in flight finish,
# and the outbox is flushed for up to 10 seconds. Whatever is left is sent after the next start.
ENTRYPOINT ["weatherbot"]
CMD ["run"]
