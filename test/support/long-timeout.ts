/** The slow and processes tiers (jest.config.js): their tests start servers, engines and browsers. */
jest.setTimeout(120_000);
