"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadAwsServiceSpec = loadAwsServiceSpec;
exports.loadAwsServiceSpecSync = loadAwsServiceSpecSync;
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const node_zlib_1 = require("node:zlib");
const service_spec_types_1 = require("@aws-cdk/service-spec-types");
const DB_COMPRESSED = 'db.json.gz';
const DB_PATH = path.join(__dirname, '..', DB_COMPRESSED);
/**
 * Load the provided built-in database
 */
async function loadAwsServiceSpec() {
    return loadBufferIntoDatabase(await node_fs_1.promises.readFile(DB_PATH));
}
/**
 * Synchronously load the provided built-in database
 */
function loadAwsServiceSpecSync() {
    return loadBufferIntoDatabase((0, node_fs_1.readFileSync)(DB_PATH));
}
function loadBufferIntoDatabase(spec) {
    const db = (0, service_spec_types_1.emptyDatabase)();
    db.load(JSON.parse((0, node_zlib_1.gunzipSync)(spec).toString('utf-8')));
    return db;
}
//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozLCJmaWxlIjoiaW5kZXguanMiLCJzb3VyY2VSb290IjoiIiwic291cmNlcyI6WyIuLi9zcmMvaW5kZXgudHMiXSwibmFtZXMiOltdLCJtYXBwaW5ncyI6Ijs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7QUFXQSxnREFFQztBQUtELHdEQUVDO0FBcEJELHFDQUF1RDtBQUN2RCxnREFBa0M7QUFDbEMseUNBQXVDO0FBQ3ZDLG9FQUEwRTtBQUUxRSxNQUFNLGFBQWEsR0FBRyxZQUFZLENBQUM7QUFDbkMsTUFBTSxPQUFPLEdBQUcsSUFBSSxDQUFDLElBQUksQ0FBQyxTQUFTLEVBQUUsSUFBSSxFQUFFLGFBQWEsQ0FBQyxDQUFDO0FBRTFEOztHQUVHO0FBQ0ksS0FBSyxVQUFVLGtCQUFrQjtJQUN0QyxPQUFPLHNCQUFzQixDQUFDLE1BQU0sa0JBQUUsQ0FBQyxRQUFRLENBQUMsT0FBTyxDQUFDLENBQUMsQ0FBQztBQUM1RCxDQUFDO0FBRUQ7O0dBRUc7QUFDSCxTQUFnQixzQkFBc0I7SUFDcEMsT0FBTyxzQkFBc0IsQ0FBQyxJQUFBLHNCQUFZLEVBQUMsT0FBTyxDQUFDLENBQUMsQ0FBQztBQUN2RCxDQUFDO0FBRUQsU0FBUyxzQkFBc0IsQ0FBQyxJQUFZO0lBQzFDLE1BQU0sRUFBRSxHQUFHLElBQUEsa0NBQWEsR0FBRSxDQUFDO0lBQzNCLEVBQUUsQ0FBQyxJQUFJLENBQUMsSUFBSSxDQUFDLEtBQUssQ0FBQyxJQUFBLHNCQUFVLEVBQUMsSUFBSSxDQUFDLENBQUMsUUFBUSxDQUFDLE9BQU8sQ0FBQyxDQUFDLENBQUMsQ0FBQztJQUN4RCxPQUFPLEVBQUUsQ0FBQztBQUNaLENBQUMiLCJzb3VyY2VzQ29udGVudCI6WyJpbXBvcnQgeyBwcm9taXNlcyBhcyBmcywgcmVhZEZpbGVTeW5jIH0gZnJvbSAnbm9kZTpmcyc7XG5pbXBvcnQgKiBhcyBwYXRoIGZyb20gJ25vZGU6cGF0aCc7XG5pbXBvcnQgeyBndW56aXBTeW5jIH0gZnJvbSAnbm9kZTp6bGliJztcbmltcG9ydCB7IGVtcHR5RGF0YWJhc2UsIFNwZWNEYXRhYmFzZSB9IGZyb20gJ0Bhd3MtY2RrL3NlcnZpY2Utc3BlYy10eXBlcyc7XG5cbmNvbnN0IERCX0NPTVBSRVNTRUQgPSAnZGIuanNvbi5neic7XG5jb25zdCBEQl9QQVRIID0gcGF0aC5qb2luKF9fZGlybmFtZSwgJy4uJywgREJfQ09NUFJFU1NFRCk7XG5cbi8qKlxuICogTG9hZCB0aGUgcHJvdmlkZWQgYnVpbHQtaW4gZGF0YWJhc2VcbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGxvYWRBd3NTZXJ2aWNlU3BlYygpOiBQcm9taXNlPFNwZWNEYXRhYmFzZT4ge1xuICByZXR1cm4gbG9hZEJ1ZmZlckludG9EYXRhYmFzZShhd2FpdCBmcy5yZWFkRmlsZShEQl9QQVRIKSk7XG59XG5cbi8qKlxuICogU3luY2hyb25vdXNseSBsb2FkIHRoZSBwcm92aWRlZCBidWlsdC1pbiBkYXRhYmFzZVxuICovXG5leHBvcnQgZnVuY3Rpb24gbG9hZEF3c1NlcnZpY2VTcGVjU3luYygpOiBTcGVjRGF0YWJhc2Uge1xuICByZXR1cm4gbG9hZEJ1ZmZlckludG9EYXRhYmFzZShyZWFkRmlsZVN5bmMoREJfUEFUSCkpO1xufVxuXG5mdW5jdGlvbiBsb2FkQnVmZmVySW50b0RhdGFiYXNlKHNwZWM6IEJ1ZmZlcik6IFNwZWNEYXRhYmFzZSB7XG4gIGNvbnN0IGRiID0gZW1wdHlEYXRhYmFzZSgpO1xuICBkYi5sb2FkKEpTT04ucGFyc2UoZ3VuemlwU3luYyhzcGVjKS50b1N0cmluZygndXRmLTgnKSkpO1xuICByZXR1cm4gZGI7XG59XG4iXX0=