/** The name the demo server gets in a workspace ("Try the demo server"). */
export const DEMO_SERVER_NAME = "demo";
